"""Files (or in-memory Markdown) into the index: convert, chunk, embed, commit; idempotent and streaming.

Memory stays bounded by one embedding batch: chunks are embedded once ``batch_chunks`` have gathered (small
documents share a batch, which is what keeps a corpus of short pages fast) and written invisible at once; a
document goes live when its last chunk is written. A long document is chunked as it streams from its file
(``iter_chunks``), so neither its text nor its chunks are ever held whole. Files whose digest and pipeline
signature match their record are skipped before conversion.

Identity: a source is keyed by its resolved path (or a URL); its ``document_id`` is the id it had when it was
first indexed, else the readable id it asks for, made unique against other sources of the index.
"""

from __future__ import annotations

import hashlib
import logging
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from typing import Protocol

from sleuth.ingest.chunker import CHUNKER_VERSION, iter_chunks
from sleuth.ingest.contextualize import contextualize
from sleuth.ingest.convert import CONVERTER_VERSION, Converted, ConvertOptions
from sleuth.ingest.convert.cache import ConversionCache, file_digest
from sleuth.ingest.convert.pool import convert_files
from sleuth.ingest.models import Chunk
from sleuth.ingest.sources import SkippedPageError, SourceError, SourceFile, disambiguate, resolve
from sleuth.ingest.tokens import TokenCounter
from sleuth.retrieval.encoders import Encoders
from sleuth.retrieval.index import DocumentRecord, DocumentWriter, Index, generation_of

log = logging.getLogger(__name__)
#: Bump when the text given to the encoders changes (it changes every vector).
EMBED_FORMAT = 1
#: Bump when the chunk payload changes (documents are rewritten; 2: document title and date; 3: page breaks
#: inside a chunk, and no date taken from a file's time).
PAYLOAD_FORMAT = 3


def passage_text(chunk: Chunk) -> str:
    """What the encoders see: the heading path, then the content (``contextualize``, without the title: the
    vectors of an index were built this way, and changing it means re-embedding every chunk)."""
    return contextualize(chunk.content, section_path=chunk.section_path or None)


@dataclass(frozen=True, slots=True)
class Shard:
    """``i/n``: this worker takes the sources whose key hashes to ``i`` modulo ``n``."""

    index: int = 0
    count: int = 1

    @classmethod
    def parse(cls, text: str) -> Shard:
        try:
            i, n = (int(x) for x in text.split("/"))
        except ValueError:
            raise ValueError(f"shard {text!r} is not of the form i/n") from None
        if n < 1 or not 0 <= i < n:
            raise ValueError(f"shard {text!r}: need 0 <= i < n")
        return cls(i, n)

    def owns(self, key: str) -> bool:
        return self.count == 1 or zlib.crc32(key.encode()) % self.count == self.index


class IngestProgress(Protocol):
    """What an ingest tells a progress display; the display decides how (and whether) to show it."""

    def waiting(self, source: str) -> None:
        """``source`` is being converted or read now (a long conversion must not look stuck)."""

    def chunks(self, count: int) -> None:
        """``count`` more chunks were embedded and written."""

    def partial(self, source: str, share: float, size: int) -> None:
        """``source`` (``size`` bytes) is being indexed and is ``share`` (0..1) done, where that is known."""

    def finished(self, source: str, size: int) -> None:
        """One input is done, whatever the outcome; ``size`` is its byte count (for an ETA)."""


class _Silent:
    def waiting(self, source: str) -> None:
        pass

    def chunks(self, count: int) -> None:
        pass

    def partial(self, source: str, share: float, size: int) -> None:
        pass

    def finished(self, source: str, size: int) -> None:
        pass


@dataclass
class IngestReport:
    seen: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    failed: int = 0
    #: Pages that are no documents of their own (redirects, indexes): skipped, not failed.
    skipped_pages: int = 0
    skipped_other_shard: int = 0
    chunks_written: int = 0
    #: Tokens of the chunks written: embedding cost is per token, so this is the fair throughput unit.
    tokens_written: int = 0
    pages: int = 0
    seconds: dict[str, float] = field(
        default_factory=lambda: {"convert": 0.0, "chunk": 0.0, "embed": 0.0, "store": 0.0, "total": 0.0}
    )
    errors: list[str] = field(default_factory=list)
    #: Each skipped page and why (``{"path": ..., "reason": ...}``): a user who counts 28 wants to know which.
    skipped: list[dict[str, str]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SourceText:
    """A document that needs no conversion (a dataset record, a fetched page): its key, id and Markdown."""

    key: str
    source: str
    document_id: str
    digest: str
    markdown: str
    converter: str | None = None
    pages: int | None = None
    title: str | None = None
    date: str | None = None
    date_source: str | None = None


@dataclass(frozen=True, slots=True)
class _Doc:
    key: str
    source: str
    document_id: str
    digest: str
    text: Iterable[str]
    known: bool
    converter: str | None
    pages: int | None
    title: str | None
    date: str | None
    date_source: str | None
    size: int = 0


class Ingestor:
    def __init__(
        self,
        index: Index,
        encoders: Encoders,
        counter: TokenCounter,
        *,
        max_tokens: int,
        overlap_tokens: int,
        batch_chunks: int = 64,
        on_error: Callable[[str], None] | None = None,
        progress: IngestProgress | None = None,
    ) -> None:
        self.index = index
        self.encoders = encoders
        self.counter = counter
        self.max_tokens = max_tokens
        self.overlap_tokens = overlap_tokens
        self.batch_chunks = batch_chunks
        self.report = IngestReport()
        self.progress: IngestProgress = progress or _Silent()
        self._on_error = on_error or (lambda line: None)
        self._pending: list[tuple[DocumentWriter, Chunk]] = []
        self._finished: list[tuple[DocumentWriter, bool]] = []
        #: document ids handed out in this run, by source key (not committed yet, so not in the index).
        self._claimed: dict[str, str] = {}
        self.signature = hashlib.sha256(
            repr(
                (
                    index.models.as_dict(),
                    counter.identity,
                    max_tokens,
                    overlap_tokens,
                    CONVERTER_VERSION,
                    CHUNKER_VERSION,
                    EMBED_FORMAT,
                    PAYLOAD_FORMAT,
                )
            ).encode()
        ).hexdigest()[:16]

    # -- what needs work

    def current(self, key: str, digest: str) -> tuple[bool, DocumentRecord | None]:
        """(up to date, the source's record if it has one) for ``key`` with content ``digest``."""
        record = self.index.document(key)
        if record is None:
            return False, None
        return record.digest == digest and record.signature == self.signature, record

    def document_id_for(self, key: str, wanted: str, record: DocumentRecord | None) -> str:
        """The id a source keeps for life: its recorded one, else ``wanted`` unless another source has it."""
        if record is not None:
            return record.document_id
        owners = {r.key for r in self.index.documents_by_id(wanted)}
        if wanted in self._claimed:
            owners.add(self._claimed[wanted])
        owners.discard(key)
        document_id = disambiguate(wanted, key) if owners else wanted
        self._claimed[document_id] = key
        return document_id

    # -- whole runs

    def ingest_sources(
        self,
        sources: Iterable[SourceFile | SourceError],
        options: ConvertOptions,
        *,
        workers: int = 1,
        timeout: float = 600.0,
        cache: ConversionCache | None = None,
        shard: Shard = Shard(),
    ) -> None:
        """Convert and add every new or changed file; unchanged ones cost a hash."""
        started = time.perf_counter()
        plan: dict[str, tuple[SourceFile, DocumentRecord | None, str]] = {}

        def changed() -> Iterator[Path | SourceError]:
            for item in sources:
                if isinstance(item, SkippedPageError):
                    # (a file the walk found that is no document: a build's page source, its theme's icons)
                    if not shard.owns(item.path):
                        self.report.skipped_other_shard += 1
                        continue
                    self.report.seen += 1
                    self._skipped(item, self.index.document(item.path))
                    self.progress.finished(item.path, 0)
                    continue
                if isinstance(item, SourceError):
                    yield item
                    continue
                if not shard.owns(item.key):
                    self.report.skipped_other_shard += 1
                    continue
                self.report.seen += 1
                try:
                    digest = file_digest(item.path)
                except OSError as exc:
                    yield SourceError(item.path, exc.strerror or str(exc))
                    continue
                up_to_date, record = self.current(item.key, digest)
                if up_to_date:
                    self.report.unchanged += 1
                    self.progress.finished(item.key, _size(item.path))
                    continue
                plan[item.key] = (item, record, digest)
                yield item.path

        converted = convert_files(
            changed(),
            options,
            workers=workers,
            timeout=timeout,
            cache=cache,
            on_wait=lambda path: self.progress.waiting(str(path)),
        )
        waited = time.perf_counter()
        for path, result in converted:
            self.report.seconds["convert"] += time.perf_counter() - waited
            planned = plan.pop(str(path), None)
            if isinstance(result, SkippedPageError) and planned is not None:
                self._skipped(result, planned[1])
            elif isinstance(result, SourceError) or planned is None:
                self.fail(str(result))
            else:
                item, record, digest = planned
                self._add(self._doc(item, record, digest, result))
            self.progress.finished(str(path), _size(path))
            waited = time.perf_counter()
        self._flush()
        self.report.seconds["total"] += time.perf_counter() - started

    def _skipped(self, page: SkippedPageError, record: DocumentRecord | None) -> None:
        """Count and name a page that is no document; what the index held of it goes (it had text when it
        was indexed, or was indexed before it was told apart: what it said is gone or said elsewhere)."""
        self.report.skipped_pages += 1
        self.report.skipped.append({"path": page.path, "reason": page.reason})
        log.debug("%s", page)
        if record is not None:
            self.index.remove(record.key)
            self.report.removed += 1

    def _doc(self, item: SourceFile, record: DocumentRecord | None, digest: str, result: Converted) -> _Doc:
        # A document is dated by what it says (metadata, a date on its first page), never by its file's time:
        # a copy made today would make a 2017 paper look new, and staleness would mean nothing.
        date, date_source = result.date, result.date_source
        return _Doc(
            key=item.key,
            source=str(item.path),
            document_id=self.document_id_for(item.key, item.document_id, record),
            digest=digest,
            text=result.text(),
            known=record is not None,
            converter=result.converter,
            pages=result.pages,
            title=result.title,
            date=date,
            date_source=date_source,
            size=_size(item.path),
        )

    def ingest_texts(self, docs: Iterable[SourceText]) -> None:
        """Add documents that need no conversion (datasets, fetched pages), skipping unchanged ones."""
        started = time.perf_counter()
        for doc in docs:
            self.report.seen += 1
            up_to_date, record = self.current(doc.key, doc.digest)
            if up_to_date:
                self.report.unchanged += 1
            else:
                self._add(
                    _Doc(
                        key=doc.key,
                        source=doc.source,
                        document_id=self.document_id_for(doc.key, doc.document_id, record),
                        digest=doc.digest,
                        text=[doc.markdown],
                        known=record is not None,
                        converter=doc.converter,
                        pages=doc.pages,
                        title=doc.title,
                        date=doc.date,
                        date_source=doc.date_source,
                    )
                )
            self.progress.finished(doc.key, len(doc.markdown))
        self._flush()
        self.report.seconds["total"] += time.perf_counter() - started

    # -- one document

    def _add(self, doc: _Doc) -> None:
        record = DocumentRecord(
            key=doc.key,
            source=doc.source,
            document_id=doc.document_id,
            digest=doc.digest,
            signature=self.signature,
            generation=generation_of(doc.key, doc.digest, self.signature),
            chunk_count=0,
            converter=doc.converter,
            ingested_at=time.time(),
            title=doc.title,
            date=doc.date,
            date_source=doc.date_source,
        )
        writer = self.index.writer(record)
        chunks = iter_chunks(
            doc.text,
            self.counter,
            document_id=doc.document_id,
            source=doc.source,
            max_tokens=self.max_tokens,
            overlap_tokens=self.overlap_tokens,
        )
        count = 0
        try:
            while True:
                started = time.perf_counter()
                chunk = next(chunks, None)
                self.report.seconds["chunk"] += time.perf_counter() - started
                if chunk is None:
                    break
                self._pending.append((writer, chunk))
                count += 1
                if doc.pages and chunk.page_end:
                    self.progress.partial(doc.source, min(chunk.page_end / doc.pages, 1.0), doc.size)
                if len(self._pending) >= self.batch_chunks:
                    self._flush()
        except Exception as exc:  # a bad byte mid-file or a chunker bug must not end the batch
            self._pending = [(w, c) for w, c in self._pending if w is not writer]
            writer.abort()
            self.fail(f"{doc.source}: {_reason(exc)}")
            return
        if count == 0:
            self.fail(f"{doc.source}: no text to index")
            return
        self.report.pages += doc.pages or 0
        self._finished.append((writer, doc.known))

    def _flush(self) -> None:
        """Embed and write everything pending, then commit the documents whose chunks are all written."""
        batch, self._pending = self._pending, []
        if batch:
            started = time.perf_counter()
            dense, sparse = self.encoders.embed_passages([passage_text(c) for _, c in batch])
            self.report.seconds["embed"] += time.perf_counter() - started
            started = time.perf_counter()
            offset = 0
            for writer, group in groupby(batch, key=lambda item: item[0]):
                chunks = [c for _, c in group]
                n = len(chunks)
                writer.add(chunks, dense[offset : offset + n], sparse[offset : offset + n])
                offset += n
            self.report.seconds["store"] += time.perf_counter() - started
            self.progress.chunks(len(batch))
        if not self._finished:
            return
        started = time.perf_counter()
        for writer, known in self._finished:
            record = writer.commit()
            log.info("%s: %d chunks indexed", record.source, record.chunk_count)
            self.report.chunks_written += record.chunk_count
            self.report.tokens_written += writer.tokens
            if known:
                self.report.updated += 1
            else:
                self.report.added += 1
        self.index.store.flush()
        log.info("flushed %d documents to the index", len(self._finished))
        self._finished = []
        self.report.seconds["store"] += time.perf_counter() - started

    def fail(self, line: str) -> None:
        self.report.failed += 1
        self.report.errors.append(line)
        self._on_error(line)

    # -- removal

    def prune(self, roots: Iterable[Path], shard: Shard = Shard()) -> None:
        """Remove the indexed files under ``roots`` that no longer exist on disk.

        Decided by the disk alone, never by what this object has seen: pruning is safe in any call order.
        """
        prefixes = [str(resolve(r)) for r in roots]
        stale = [
            rec.key
            for rec in self.index.documents()
            if shard.owns(rec.key) and _under(rec.key, prefixes) and not Path(rec.source).exists()
        ]
        for key in stale:
            self.index.remove(key)
            self.report.removed += 1
        self.index.store.flush()

    def remove_paths(self, paths: Sequence[Path]) -> dict[str, int]:
        """Remove the indexed sources at or under each path; how many each path removed (0: none indexed)."""
        records = list(self.index.documents())
        removed: dict[str, int] = {}
        for path in paths:
            prefix = str(resolve(path))
            keys = [r.key for r in records if _under(r.key, [prefix])]
            for key in keys:
                self.index.remove(key)
            removed[str(path)] = len(keys)
            self.report.removed += len(keys)
        self.index.store.flush()
        return removed

    def remove_documents(self, document_ids: Sequence[str]) -> dict[str, int]:
        """Remove the sources with these document ids; how many each id removed (0: unknown id)."""
        removed: dict[str, int] = {}
        for document_id in document_ids:
            records = self.index.documents_by_id(document_id)
            for record in records:
                self.index.remove(record.key)
            removed[document_id] = len(records)
            self.report.removed += len(records)
        self.index.store.flush()
        return removed


def _under(key: str, prefixes: Sequence[str]) -> bool:
    return any(key == p or key.startswith(p.rstrip("/") + "/") for p in prefixes)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _reason(exc: Exception) -> str:
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text (invalid byte at offset {exc.start} of a block)"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return f"chunking failed ({type(exc).__name__}: {exc})"


def source_key(path: Path) -> str:
    """Sources are keyed by resolved absolute path: every spelling of one file is one source."""
    return str(resolve(path))
