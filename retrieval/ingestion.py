"""Files (or in-memory Markdown) into the index: convert, chunk, embed, commit; idempotent and streaming.

Memory stays bounded by one embedding batch: documents are chunked as they arrive from the conversion pool,
their chunks are embedded together once ``batch_chunks`` have gathered (small documents share a batch, which
is what keeps a corpus of short pages fast), and each document is committed as soon as its vectors exist.
Files whose digest and pipeline signature match their record are skipped before conversion.
"""

from __future__ import annotations

import hashlib
import logging
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sleuth.ingest.chunker import chunk_markdown
from sleuth.ingest.convert import CONVERTER_VERSION, ConvertOptions
from sleuth.ingest.convert.cache import ConversionCache, file_digest
from sleuth.ingest.convert.pool import convert_files
from sleuth.ingest.models import Chunk
from sleuth.ingest.sources import SourceError
from sleuth.ingest.tokens import TokenCounter
from sleuth.retrieval.encoders import Encoders
from sleuth.retrieval.index import DocumentRecord, Index, generation_of

log = logging.getLogger(__name__)
#: Bump when the text given to the encoders changes (it changes every vector).
EMBED_FORMAT = 1


def passage_text(chunk: Chunk) -> str:
    """What the encoders see: the heading path, then the content.

    A chunk deep in a manual rarely repeats the words of its headings ("Options", "Return value"); the path
    puts the subject back. Measured on FanOutQA/Wikipedia in docs/BENCHMARKS.md.
    """
    return f"{chunk.section_path}\n{chunk.content}" if chunk.section_path else chunk.content


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


@dataclass
class IngestReport:
    seen: int = 0
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    failed: int = 0
    skipped_other_shard: int = 0
    chunks_written: int = 0
    pages: int = 0
    seconds: dict[str, float] = field(
        default_factory=lambda: {"convert": 0.0, "chunk": 0.0, "embed": 0.0, "store": 0.0, "total": 0.0}
    )
    errors: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class SourceText:
    """A document ready to chunk: where it came from, how it is keyed, and its Markdown."""

    key: str
    source: str
    document_id: str
    digest: str
    markdown: str
    converter: str | None = None
    pages: int | None = None


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
    ) -> None:
        self.index = index
        self.encoders = encoders
        self.counter = counter
        self.max_tokens = max_tokens
        self.overlap_tokens = overlap_tokens
        self.batch_chunks = batch_chunks
        self.report = IngestReport()
        self._on_error = on_error or (lambda line: None)
        self._pending: list[tuple[SourceText, list[Chunk], bool]] = []
        self._pending_chunks = 0
        #: Keys of every source this run walked (changed, unchanged or failed): what ``prune`` keeps.
        self.seen_keys: set[str] = set()
        self.signature = hashlib.sha256(
            repr(
                (
                    index.models.as_dict(),
                    max_tokens,
                    overlap_tokens,
                    CONVERTER_VERSION,
                    EMBED_FORMAT,
                )
            ).encode()
        ).hexdigest()[:16]

    # -- what needs work

    def is_current(self, key: str, digest: str) -> tuple[bool, bool]:
        """(up to date, known at all) for the source ``key`` with content ``digest``."""
        record = self.index.document(key)
        if record is None:
            return False, False
        return record.digest == digest and record.signature == self.signature, True

    # -- adding documents

    def add(self, doc: SourceText, *, known: bool) -> None:
        started = time.perf_counter()
        try:
            chunks = chunk_markdown(
                doc.markdown,
                self.counter,
                document_id=doc.document_id,
                source=doc.source,
                max_tokens=self.max_tokens,
                overlap_tokens=self.overlap_tokens,
            )
        except Exception as exc:  # a chunker bug must not end the batch; the file is named
            self.fail(f"{doc.source}: chunking failed ({type(exc).__name__}: {exc})")
            return
        finally:
            self.report.seconds["chunk"] += time.perf_counter() - started
        if not chunks:
            self.fail(f"{doc.source}: no text to index")
            return
        self.report.pages += doc.pages or 0
        self._pending.append((doc, chunks, known))
        self._pending_chunks += len(chunks)
        if self._pending_chunks >= self.batch_chunks:
            self.flush()

    def flush(self) -> None:
        """Embed everything pending and commit it, document by document."""
        if not self._pending:
            return
        batch, self._pending, self._pending_chunks = self._pending, [], 0
        started = time.perf_counter()
        texts = [passage_text(c) for _, chunks, _ in batch for c in chunks]
        dense, sparse = self.encoders.embed_passages(texts)
        self.report.seconds["embed"] += time.perf_counter() - started
        started = time.perf_counter()
        offset = 0
        for doc, chunks, known in batch:
            n = len(chunks)
            record = DocumentRecord(
                key=doc.key,
                source=doc.source,
                document_id=doc.document_id,
                digest=doc.digest,
                signature=self.signature,
                generation=generation_of(doc.key, doc.digest, self.signature),
                chunk_count=n,
                converter=doc.converter,
                ingested_at=time.time(),
            )
            self.index.write(record, chunks, dense[offset : offset + n], sparse[offset : offset + n])
            offset += n
            log.info("%s: %d chunks indexed", doc.source, n)
            self.report.chunks_written += n
            if known:
                self.report.updated += 1
            else:
                self.report.added += 1
        self.index.store.flush()
        log.info("flushed %d documents to the index", len(batch))
        self.report.seconds["store"] += time.perf_counter() - started

    def fail(self, line: str) -> None:
        self.report.failed += 1
        self.report.errors.append(line)
        self._on_error(line)

    # -- whole runs

    def ingest_files(
        self,
        files: Iterable[Path | SourceError],
        options: ConvertOptions,
        *,
        workers: int = 1,
        timeout: float = 600.0,
        cache: ConversionCache | None = None,
        shard: Shard = Shard(),
        progress: Callable[[int], None] | None = None,
    ) -> None:
        """Convert and add every changed file; ``progress(n)`` is told of each file finished."""
        started = time.perf_counter()
        # Per changed source: (was it indexed before, its digest), so each file is hashed once.
        pending: dict[str, tuple[bool, str]] = {}

        def changed() -> Iterator[Path | SourceError]:
            for item in files:
                if isinstance(item, SourceError):
                    yield item
                    continue
                key = source_key(item)
                if not shard.owns(key):
                    self.report.skipped_other_shard += 1
                    continue
                self.report.seen += 1
                self.seen_keys.add(key)
                try:
                    digest = file_digest(item)
                except OSError as exc:
                    yield SourceError(item, exc.strerror or str(exc))
                    continue
                current, was_known = self.is_current(key, digest)
                if current:
                    self.report.unchanged += 1
                    if progress:
                        progress(1)
                    continue
                pending[key] = (was_known, digest)
                yield item

        converted = convert_files(changed(), options, workers=workers, timeout=timeout, cache=cache)
        waited = time.perf_counter()
        for path, result in converted:
            self.report.seconds["convert"] += time.perf_counter() - waited
            if isinstance(result, SourceError):
                self.fail(str(result))
            else:
                key = source_key(path)
                # A file named twice in PATHS is converted twice; its second occurrence is hashed again.
                was_known, digest = pending.pop(key) if key in pending else (False, file_digest(path))
                self.add(
                    SourceText(
                        key=key,
                        source=str(path),
                        document_id=path.stem,
                        digest=digest,
                        markdown=result.markdown,
                        converter=result.converter,
                        pages=result.pages,
                    ),
                    known=was_known,
                )
            if progress:
                progress(1)
            waited = time.perf_counter()
        self.flush()
        self.report.seconds["total"] += time.perf_counter() - started

    def ingest_texts(
        self, docs: Iterable[SourceText], *, progress: Callable[[int], None] | None = None
    ) -> None:
        """Add documents that need no conversion (datasets, fetched pages), skipping unchanged ones."""
        started = time.perf_counter()
        for doc in docs:
            self.report.seen += 1
            self.seen_keys.add(doc.key)
            current, known = self.is_current(doc.key, doc.digest)
            if current:
                self.report.unchanged += 1
            else:
                self.add(doc, known=known)
            if progress:
                progress(1)
        self.flush()
        self.report.seconds["total"] += time.perf_counter() - started

    def prune(self, roots: Iterable[Path], shard: Shard = Shard()) -> None:
        """Remove sources under ``roots`` that this run did not walk (deleted or moved away)."""
        seen = self.seen_keys
        prefixes = [source_key(r) for r in roots]
        stale = [
            rec.key
            for rec in self.index.documents()
            if shard.owns(rec.key)
            and rec.key not in seen
            and any(rec.key == p or rec.key.startswith(p.rstrip("/") + "/") for p in prefixes)
        ]
        for key in stale:
            self.index.remove(key)
            self.report.removed += 1
        self.index.store.flush()


def source_key(path: Path) -> str:
    """Sources are keyed by absolute path: one file reached by two relative paths is one source."""
    return str(path.expanduser().absolute())
