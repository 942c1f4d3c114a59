"""The corpus index: chunk points, one record per document, and the models that built it.

Crash safety without transactions. A document is written in four steps, each idempotent:

1. its new chunks are upserted as ``state=pending`` under ids derived from the new *generation* (a hash of the
   file digest and the pipeline signature), so they never overwrite the live version;
2. every other chunk point of that source (older generations, leftovers of a crashed run) is deleted;
3. the new chunks are flipped to ``state=live``;
4. the document record (digest, signature, generation) is written.

Step 1 may take many batches: a long document is embedded and written while it is still being chunked
(``DocumentWriter``), so memory holds one batch, never the document.

Search only sees ``state=live``. A crash before step 2 leaves the old version live and the new one invisible;
between 2 and 3 the document is briefly absent; after 3 it is complete. The record is written last, so a rerun
redoes any document whose record does not match, and step 2 sweeps whatever the crash left behind. No
duplicates, no half-written document visible.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from sleuth.ingest.models import Chunk
from sleuth.retrieval.encoders import ModelIdentity, SparseVector
from sleuth.retrieval.store.base import Point, Store, StoreError

SCHEMA_VERSION = 1
_NAMESPACE = uuid.UUID("5b1d6a0e-6f1c-4f55-9a57-3c1e2f0d8a11")
META_ID = str(uuid.uuid5(_NAMESPACE, "sleuth:index"))


class ModelMismatchError(StoreError):
    """The index was built with other models than the ones configured now."""


@dataclass(frozen=True, slots=True)
class DocumentRecord:
    key: str
    source: str
    document_id: str
    digest: str
    signature: str
    generation: str
    chunk_count: int
    converter: str | None
    ingested_at: float
    title: str | None = None
    #: ISO 8601; what the document says of itself (metadata), else its file's modification time.
    date: str | None = None
    date_source: str | None = None

    @classmethod
    def from_payload(cls, payload: dict[str, Any]) -> DocumentRecord:
        return cls(
            key=payload["key"],
            source=payload["source"],
            document_id=payload["document_id"],
            digest=payload["digest"],
            signature=payload["signature"],
            generation=payload["generation"],
            chunk_count=int(payload["chunk_count"]),
            converter=payload.get("converter"),
            ingested_at=float(payload.get("ingested_at", 0.0)),
            title=payload.get("title"),
            date=payload.get("date"),
            date_source=payload.get("date_source"),
        )

    def payload(self) -> dict[str, Any]:
        return {
            "record": "document",
            "key": self.key,
            "source": self.source,
            "document_id": self.document_id,
            "digest": self.digest,
            "signature": self.signature,
            "generation": self.generation,
            "chunk_count": self.chunk_count,
            "converter": self.converter,
            "ingested_at": self.ingested_at,
            "title": self.title,
            "date": self.date,
            "date_source": self.date_source,
        }


def document_point_id(key: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, "document:" + key))


def chunk_point_id(generation: str, chunk_id: str) -> str:
    return str(uuid.uuid5(_NAMESPACE, f"chunk:{generation}:{chunk_id}"))


def generation_of(key: str, digest: str, signature: str) -> str:
    return hashlib.sha256(f"{key}\0{digest}\0{signature}".encode()).hexdigest()[:32]


def section_prefixes(section_path: str) -> list[str]:
    """``"A > B > C"`` -> ``["A", "A > B", "A > B > C"]``: a keyword index then answers prefix filters."""
    parts = [p for p in section_path.split(" > ") if p] if section_path else []
    return [" > ".join(parts[: i + 1]) for i in range(len(parts))]


class Index:
    """Documents and chunks in a ``Store``, guarded by the model identity recorded at creation."""

    def __init__(self, store: Store, models: ModelIdentity, *, create: bool) -> None:
        self.store = store
        self.models = models
        meta = store.retrieve([META_ID])
        if meta:
            recorded = meta[0].payload.get("models", {})
            if recorded != models.as_dict():
                raise ModelMismatchError(
                    f"index {store.location} was built with {_describe(recorded)}; the configured models are "
                    f"{_describe(models.as_dict())} (use the same models, or another --index)"
                )
        elif create:
            payload = {"record": "index", "schema": SCHEMA_VERSION, "models": models.as_dict()}
            store.upsert([Point(META_ID, {**payload, "created_at": time.time()})])
        else:
            raise StoreError(f"index {store.location} is empty (run `sleuth ingest` first)")

    def document(self, key: str) -> DocumentRecord | None:
        found = self.store.retrieve([document_point_id(key)])
        return DocumentRecord.from_payload(found[0].payload) if found else None

    def documents(self) -> Iterator[DocumentRecord]:
        for record in self.store.scroll({"record": "document"}):
            yield DocumentRecord.from_payload(record.payload)

    def documents_by_id(self, document_id: str) -> list[DocumentRecord]:
        """The sources recorded under ``document_id`` (one, unless an older index let two share it)."""
        return [
            DocumentRecord.from_payload(r.payload)
            for r in self.store.scroll({"record": "document", "document_id": document_id})
        ]

    def writer(self, record: DocumentRecord) -> DocumentWriter:
        """A writer that replaces the source's chunks by ``record``'s new generation, batch by batch."""
        return DocumentWriter(self, record)

    def write(
        self,
        record: DocumentRecord,
        chunks: Sequence[Chunk],
        dense: np.ndarray,
        sparse: Sequence[SparseVector],
    ) -> None:
        """Replace the source's chunks by ``chunks`` in one go (the whole protocol, for small documents)."""
        writer = self.writer(record)
        writer.add(chunks, dense, sparse)
        writer.commit()

    def remove(self, key: str) -> None:
        """Drop a source: its chunks first (invisible at once), then its record."""
        self.store.delete({"record": "chunk", "source_key": key})
        self.store.delete({"record": "document", "key": key})

    def chunk_count(self) -> int:
        return self.store.count({"record": "chunk", "state": "live"})


class DocumentWriter:
    """Steps 1 to 4 of the module docstring for one document whose chunks arrive in batches."""

    def __init__(self, index: Index, record: DocumentRecord) -> None:
        self.index = index
        self.record = record
        self.ids: list[str] = []
        self.tokens = 0

    def add(self, chunks: Sequence[Chunk], dense: np.ndarray, sparse: Sequence[SparseVector]) -> None:
        """Step 1 for a batch: the chunks are stored invisible (``state=pending``)."""
        ids = [chunk_point_id(self.record.generation, c.id) for c in chunks]
        points = [
            Point(pid, _chunk_payload(c, self.record), dense=[float(x) for x in vec], sparse=sv)
            for pid, c, vec, sv in zip(ids, chunks, dense, sparse, strict=True)
        ]
        self.index.store.upsert(points)
        self.ids.extend(ids)
        self.tokens += sum(c.token_count for c in chunks)

    def commit(self) -> DocumentRecord:
        """Steps 2 to 4: other versions go, this one goes live, the record is written last."""
        record = replace(self.record, chunk_count=len(self.ids))
        store = self.index.store
        store.delete({"record": "chunk", "source_key": record.key}, keep_ids=self.ids)
        store.set_payload(self.ids, {"state": "live"})
        store.upsert([Point(document_point_id(record.key), record.payload())])
        return record

    def abort(self) -> None:
        """Forget a document that failed half way: its pending points go, the live version stays."""
        if self.ids:
            self.index.store.delete(
                {"record": "chunk", "source_key": self.record.key, "state": "pending"},
            )


def _chunk_payload(chunk: Chunk, record: DocumentRecord) -> dict[str, Any]:
    data = chunk.model_dump()
    chunk_id = data.pop("id")
    return {
        **data,
        "record": "chunk",
        "state": "pending",
        "chunk_id": chunk_id,
        "source_key": record.key,
        "generation": record.generation,
        "section_prefixes": section_prefixes(chunk.section_path),
        "document_title": record.title,
        "document_date": record.date,
    }


def _describe(models: dict[str, Any]) -> str:
    return f"dense={models.get('dense')} ({models.get('dense_dim')}d), sparse={models.get('sparse')}"
