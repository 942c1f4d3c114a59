"""Where evidence comes from: the corpus and the web, behind one protocol.

A research run does the same steps with every source (search a level's questions, cut quotes from what
came back, re-read the source text before citing), so each source only has to say how it searches and where
the text of a passage it returned can be read again. Adding a source (another index, a document store) is a
class here and a line in the composition root (``sleuth.agent.wiring``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Protocol

from sleuth.agent.research.evidence import Evidence, Passage
from sleuth.agent.research.plan import Question
from sleuth.retrieval.encoders import SparseVector
from sleuth.retrieval.provenance import Kind
from sleuth.retrieval.search import Searcher, SearchFilters, SearchHit
from sleuth.retrieval.store.base import Fusion
from sleuth.retrieval.web.service import WebChunk, WebSearch

#: A question as the encoders gave it back: dense vector and sparse vector.
QueryVectors = tuple[list[float], SparseVector]


class EvidenceSource(Protocol):
    """Passages for questions, and the stored text behind evidence cut from them."""

    kind: Kind

    async def search(
        self, questions: Sequence[Question], vectors: Sequence[QueryVectors]
    ) -> list[list[Passage]]:
        """The passages of each question, best first (a hit's neighbours follow it, with its rank)."""
        ...

    def best_for_query(self, vectors: QueryVectors, document_keys: Sequence[str]) -> dict[str, Passage]:
        """Each document's passage that best matches the query, for those of ``document_keys`` it holds."""
        ...

    def texts(self, evidence: Sequence[Evidence]) -> dict[str, str | None]:
        """The authoritative text each piece of this source's evidence must stand in (None: gone)."""
        ...

    def metrics(self) -> Any:
        """What the source reports in the report's metrics (False when it has nothing to say)."""
        ...

    async def aclose(self) -> None: ...


def hit_passage(hit: SearchHit, rank: int, score: float) -> Passage:
    return Passage(
        kind="corpus",
        text=hit.content,
        document_id=hit.document_id,
        title=hit.document_title,
        section_path=hit.section_path or None,
        page=hit.page_start,
        date=hit.document_date,
        source=hit.source,
        chunk_id=hit.chunk_id,
        score=score,
        rank=rank,
    )


def web_passage(chunk: WebChunk, rank: int) -> Passage:
    return Passage(
        kind="web",
        text=chunk.text,
        document_id=None,
        title=chunk.title,
        section_path=chunk.section_path,
        page=None,
        date=chunk.date,
        source=chunk.url,
        chunk_id=chunk.chunk_id,
        url=chunk.url,
        score=chunk.score,
        rank=rank,
    )


class CorpusSource:
    """The index: hybrid search per question, with the chunks around the best hits."""

    kind: Kind = "corpus"

    def __init__(self, searcher: Searcher, *, hits_per_question: int, fusion: Fusion) -> None:
        self.searcher = searcher
        self.hits_per_question = hits_per_question
        self.fusion = fusion

    async def search(
        self, questions: Sequence[Question], vectors: Sequence[QueryVectors]
    ) -> list[list[Passage]]:
        return await asyncio.to_thread(self._search, questions, vectors)

    def _search(self, questions: Sequence[Question], vectors: Sequence[QueryVectors]) -> list[list[Passage]]:
        filters = [SearchFilters(document_ids=[q.document_id] if q.document_id else ()) for q in questions]
        found = self.searcher.search_vectors(
            list(vectors), k=self.hits_per_question, filters=filters, fusion=self.fusion
        )
        # Neighbours of each question's best hits, in one lookup: the sentence that answers is often just
        # across a chunk boundary.
        tops = [h for hits in found for h in hits[:3]]
        expanded = {h.chunk_id: h.neighbours for h in self.searcher.with_neighbours(tops, 1)}
        out: list[list[Passage]] = []
        for hits in found:
            passages: list[Passage] = []
            seen: set[str] = set()
            for rank, hit in enumerate(hits):
                for item in [hit, *expanded.get(hit.chunk_id, [])]:
                    if item.chunk_id not in seen:
                        seen.add(item.chunk_id)
                        passages.append(hit_passage(item, rank, hit.score))
            out.append(passages)
        return out

    def best_for_query(self, vectors: QueryVectors, document_keys: Sequence[str]) -> dict[str, Passage]:
        """One filtered search per document, the query encoded once: a document is judged by what it says
        about the question, not by the passage some lead happened to find."""
        found = self.searcher.search_vectors(
            [vectors] * len(document_keys),
            k=1,
            filters=[SearchFilters(document_ids=[d]) for d in document_keys],
            fusion=self.fusion,
        )
        return {
            d: hit_passage(hits[0], 0, hits[0].score)
            for d, hits in zip(document_keys, found, strict=True)
            if hits
        }

    def texts(self, evidence: Sequence[Evidence]) -> dict[str, str | None]:
        """The chunk as the index has it now (re-read, not remembered: a document may have changed)."""
        chunks = self.searcher.chunks(sorted({e.chunk_id for e in evidence if e.chunk_id}))
        return {e.id: chunks[e.chunk_id].content if e.chunk_id in chunks else None for e in evidence}

    def metrics(self) -> Any:
        return False

    async def aclose(self) -> None:
        return None


class WebSource:
    """Web search through the run's ``WebSearch``: ``fanout`` questions at a time, one page budget."""

    kind: Kind = "web"

    def __init__(self, web: WebSearch, *, fanout: int) -> None:
        self.web = web
        self.fanout = fanout

    async def search(
        self, questions: Sequence[Question], vectors: Sequence[QueryVectors]
    ) -> list[list[Passage]]:
        limit = asyncio.Semaphore(self.fanout)

        async def one(question: Question, dense: list[float]) -> list[Passage]:
            async with limit:
                chunks = await self.web.gather(question.text, dense)
            return [web_passage(chunk, rank) for rank, chunk in enumerate(chunks)]

        return list(await asyncio.gather(*(one(q, v[0]) for q, v in zip(questions, vectors, strict=True))))

    def best_for_query(self, vectors: QueryVectors, document_keys: Sequence[str]) -> dict[str, Passage]:
        return {}  # a page is judged by the passages the run fetched of it

    def texts(self, evidence: Sequence[Evidence]) -> dict[str, str | None]:
        """The chunk of the page as this run fetched and converted it."""
        out: dict[str, str | None] = {}
        for e in evidence:
            found = self.web.chunks.get(e.chunk_id or "")
            out[e.id] = found.text if found is not None else None
        return out

    def metrics(self) -> Any:
        return self.web.metrics()

    async def aclose(self) -> None:
        await self.web.aclose()
