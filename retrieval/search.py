"""Queries over the index: dense, sparse or hybrid (fused in Qdrant), filters, neighbours, documents."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from sleuth.ingest.visible import visible_text
from sleuth.retrieval.encoders import Encoders, SparseVector
from sleuth.retrieval.index import Index
from sleuth.retrieval.store.base import DEFAULT_FUSION, Fusion, Match, Mode, Record, VectorQuery

#: Chunk types a search can be limited to (the chunker's types).
SEARCHABLE_TYPES = ("text", "table", "code", "list", "toc")
#: What a search without ``--type`` covers: everything but printed tables of contents, whose entry titles
#: match almost any query and answer none.
DEFAULT_TYPES = tuple(t for t in SEARCHABLE_TYPES if t != "toc")


@dataclass(frozen=True, slots=True)
class FilterProblem:
    """A filter that can match nothing in this index: which option, and why, in one line."""

    option: str
    message: str


@dataclass(frozen=True, slots=True)
class SearchFilters:
    document_ids: Sequence[str] = ()
    chunk_types: Sequence[str] = ()
    #: Heading path prefix, e.g. "Installation" or "Installation > Linux".
    section_prefix: str | None = None

    def match(self) -> Match:
        match: Match = {"record": "chunk", "state": "live"}
        if self.document_ids:
            match["document_id"] = list(self.document_ids)
        match["chunk_type"] = list(self.chunk_types or DEFAULT_TYPES)
        if self.section_prefix:
            match["section_prefixes"] = self.section_prefix.strip()
        return match


@dataclass(frozen=True, slots=True)
class SearchHit:
    """The contract's search JSON (first seven fields) plus what a reader of the hit needs next."""

    chunk_id: str
    document_id: str
    score: float
    section_path: str
    content: str
    source: str | None
    page_start: int | None
    page_end: int | None = None
    chunk_type: str = "text"
    prev_chunk_id: str | None = None
    next_chunk_id: str | None = None
    context_before: str = ""
    context_after: str = ""
    document_title: str | None = None
    #: ISO 8601 date of the document (metadata, else file time): what citations and staleness use.
    document_date: str | None = None
    #: Pages that begin inside ``content``: (offset, page).
    page_breaks: list[tuple[int, int]] = field(default_factory=list)
    split_sequence: str | None = None
    point_id: str = ""
    neighbours: list[SearchHit] = field(default_factory=list)

    @classmethod
    def from_record(cls, record: Record) -> SearchHit:
        p = record.payload
        return cls(
            chunk_id=p["chunk_id"],
            document_id=p["document_id"],
            score=float(record.score),
            section_path=p.get("section_path", ""),
            content=p.get("content", ""),
            source=p.get("source"),
            page_start=p.get("page_start"),
            page_end=p.get("page_end"),
            chunk_type=p.get("chunk_type", "text"),
            prev_chunk_id=p.get("prev_chunk_id"),
            next_chunk_id=p.get("next_chunk_id"),
            context_before=p.get("context_before", ""),
            context_after=p.get("context_after", ""),
            document_title=p.get("document_title"),
            document_date=p.get("document_date"),
            page_breaks=[(int(a), int(b)) for a, b in p.get("page_breaks") or []],
            split_sequence=p.get("split_sequence"),
            point_id=record.id,
        )

    def as_json(self) -> dict[str, Any]:
        """The hit as the contract's search JSON, plus ``text``: the content as it reads (Markdown rendered to
        plain text), which is what a report's quotes stand verbatim in."""
        data = asdict(self)
        if not self.neighbours:
            data.pop("neighbours")
        data["text"] = visible_text(self.content).text
        return data


class Searcher:
    def __init__(self, index: Index, encoders: Encoders) -> None:
        self.index = index
        self.encoders = encoders

    def search(
        self,
        query: str,
        *,
        k: int = 10,
        mode: Mode = "hybrid",
        filters: SearchFilters = SearchFilters(),
        fusion: Fusion = DEFAULT_FUSION,
        neighbours: int = 0,
    ) -> list[SearchHit]:
        """Top ``k`` chunks; ``neighbours`` > 0 attaches that many chunks before and after each hit."""
        (hits,) = self.search_many([query], k=k, mode=mode, filters=[filters], fusion=fusion)
        return self.with_neighbours(hits, neighbours) if neighbours > 0 else hits

    def search_many(
        self,
        queries: Sequence[str],
        *,
        k: int = 10,
        mode: Mode = "hybrid",
        filters: Sequence[SearchFilters] | None = None,
        fusion: Fusion = DEFAULT_FUSION,
    ) -> list[list[SearchHit]]:
        """Several searches with the queries encoded in one batch (most of a query's cost is encoding)."""
        vectors = self.encoders.embed_queries(queries)
        return self.search_vectors(vectors, k=k, mode=mode, filters=filters, fusion=fusion)

    def search_vectors(
        self,
        vectors: Sequence[tuple[list[float], SparseVector]],
        *,
        k: int = 10,
        mode: Mode = "hybrid",
        filters: Sequence[SearchFilters] | None = None,
        fusion: Fusion = DEFAULT_FUSION,
    ) -> list[list[SearchHit]]:
        """Searches with queries already encoded (``Encoders.embed_queries``), e.g. to reuse the vectors."""
        per_query = list(filters) if filters is not None else [SearchFilters()] * len(vectors)
        return [
            [SearchHit.from_record(r) for r in self._run(dense, sparse, k, mode, f, fusion)]
            for (dense, sparse), f in zip(vectors, per_query, strict=True)
        ]

    def chunks(self, chunk_ids: Sequence[str]) -> dict[str, SearchHit]:
        """Live chunks by id, in one lookup (the research guards re-read quotes' source text with it)."""
        if not chunk_ids:
            return {}
        records = self.index.store.scroll({"record": "chunk", "state": "live", "chunk_id": list(chunk_ids)})
        return {hit.chunk_id: hit for hit in map(SearchHit.from_record, records)}

    def with_neighbours(self, hits: Sequence[SearchHit], n: int) -> list[SearchHit]:
        """Each hit with up to ``n`` chunks before and after it, one lookup per step for all hits together."""
        before: list[list[SearchHit]] = [[] for _ in hits]
        after: list[list[SearchHit]] = [[] for _ in hits]
        prev_ids = [h.prev_chunk_id for h in hits]
        next_ids = [h.next_chunk_id for h in hits]
        for _ in range(n):
            wanted = sorted({i for i in (*prev_ids, *next_ids) if i})
            if not wanted:
                break
            found = self.chunks(wanted)
            for k, hit in enumerate(hits):
                prev_hit = found.get(prev_ids[k] or "")
                next_hit = found.get(next_ids[k] or "")
                if prev_hit is not None and prev_hit.document_id == hit.document_id:
                    before[k].insert(0, prev_hit)
                    prev_ids[k] = prev_hit.prev_chunk_id
                else:
                    prev_ids[k] = None
                if next_hit is not None and next_hit.document_id == hit.document_id:
                    after[k].append(next_hit)
                    next_ids[k] = next_hit.next_chunk_id
                else:
                    next_ids[k] = None
        return [replace(hit, neighbours=b + a) for hit, b, a in zip(hits, before, after, strict=True)]

    def check_filters(self, filters: SearchFilters) -> FilterProblem | None:
        """Why ``filters`` cannot match anything here (an unknown document id or heading path), if so.

        A search must not answer nothing in silence: a misspelt id would otherwise look like "no results".
        """
        for document_id in filters.document_ids:
            if not self.index.documents_by_id(document_id):
                near = self._similar_ids(document_id)
                hint = f" (did you mean {', '.join(repr(n) for n in near)}?)" if near else ""
                return FilterProblem("--document", f"no document with id {document_id!r} in the index{hint}")
        for chunk_type in filters.chunk_types:
            if chunk_type not in SEARCHABLE_TYPES:
                return FilterProblem("--type", f"unknown chunk type {chunk_type!r}")
        if filters.section_prefix:
            match: Match = {
                "record": "chunk",
                "state": "live",
                "section_prefixes": filters.section_prefix.strip(),
            }
            if self.index.store.count(match) == 0:
                return FilterProblem(
                    "--section",
                    f"no heading path starts with {filters.section_prefix.strip()!r} "
                    "(headings are joined with ' > ', e.g. 'Guide > Install')",
                )
        return None

    def why_empty(self, filters: SearchFilters) -> str:
        """A one-line reason for a search that found nothing."""
        if self.index.chunk_count() == 0:
            return f"the index {self.index.store.location} holds no chunks"
        if filters.document_ids or filters.chunk_types or filters.section_prefix:
            return "no chunk matches all the filters together"
        return "nothing matched the query"

    def _similar_ids(self, wanted: str) -> list[str]:
        import difflib  # noqa: PLC0415 - only on an error path

        ids = {rec.document_id for rec in self.index.documents()}
        close = difflib.get_close_matches(wanted, ids, n=3, cutoff=0.5)
        ends = sorted(i for i in ids if i.endswith("/" + wanted) or i.startswith(wanted + "~"))
        return list(dict.fromkeys([*ends, *close]))[:3]

    def rank_documents(
        self, query: str, *, k: int = 100, mode: Mode = "hybrid", fusion: Fusion = DEFAULT_FUSION
    ) -> list[tuple[str, float]]:
        """Documents ranked by their best chunk (the contract's document-level ranking), best first."""
        dense, sparse = self.encoders.embed_query(query)
        best: dict[str, float] = {}
        for record in self._run(dense, sparse, max(3 * k, 100), mode, SearchFilters(), fusion):
            doc = record.payload["document_id"]
            if doc not in best:
                best[doc] = float(record.score)
            if len(best) == k:
                break
        return list(best.items())

    def _run(  # noqa: PLR0917 - one query's parts, passed through
        self,
        dense: list[float],
        sparse: SparseVector,
        limit: int,
        mode: Mode,
        filters: SearchFilters,
        fusion: Fusion,
    ) -> list[Record]:
        return self.index.store.query(
            VectorQuery(
                mode=mode,
                limit=limit,
                dense=dense if mode != "sparse" else None,
                sparse=sparse if mode != "dense" else None,
                match=filters.match(),
                fusion=fusion,
                prefetch_limit=max(100, limit),
            )
        )
