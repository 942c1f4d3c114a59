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

from sleuth.agent.research.evidence import LEAD_ORIGINS, Passage
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

    def texts(self, chunk_ids: Sequence[str]) -> dict[str, str]:
        """The stored Markdown of these chunks as the source has it now (a chunk that is gone is absent):
        what quotes are checked against, and what a passage ending on a colon reads on into."""
        ...

    def metrics(self) -> Any:
        """What the source reports in the report's metrics (False when it has nothing to say)."""
        ...

    def holds(self, document_ids: Sequence[str]) -> set[str]:
        """Which of ``document_ids`` a question can be asked inside (a question with a ``document_id``)."""
        ...

    async def aclose(self) -> None: ...


def hit_passage(
    hit: SearchHit, rank: int, score: float, similarity: float | None = None, *, neighbour: bool = False
) -> Passage:
    part, _, parts = (hit.split_sequence or "").partition("/")
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
        neighbour=neighbour,
        similarity=similarity,
        page_breaks=hit.page_breaks,
        next_chunk_id=hit.next_chunk_id,
        prev_chunk_id=hit.prev_chunk_id,
        split_start=part.isdigit() and int(part) > 1,
        split_end=part.isdigit() and parts.isdigit() and int(part) < int(parts),
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
        similarity=chunk.score,
    )


#: Hits of the search of the request as written.
QUERY_HITS = 50


class CorpusSource:
    """The index: hybrid search per question, with the chunks around the best hits."""

    kind: Kind = "corpus"

    def __init__(
        self, searcher: Searcher, *, hits_per_question: int, backbone_hits: int, fusion: Fusion
    ) -> None:
        self.searcher = searcher
        self.hits_per_question = hits_per_question
        self.backbone_hits = backbone_hits
        self.fusion = fusion

    async def search(
        self, questions: Sequence[Question], vectors: Sequence[QueryVectors]
    ) -> list[list[Passage]]:
        return await asyncio.to_thread(self._search, questions, vectors)

    def holds(self, document_ids: Sequence[str]) -> set[str]:
        return {d for d in document_ids if self.searcher.index.documents_by_id(d)}

    def _k(self, question: Question) -> int:
        """The request's own searches read deep enough to see their top documents; a section's question, a
        few hits; a lead (a step removed from the request), fewer."""
        if question.origin == "query":
            # The search as written: deep enough to see ten distinct documents (on long requests about
            # 33 hits were needed, at most 50 and more).
            return max(self.backbone_hits, QUERY_HITS)
        if question.origin in ("ask", "constraint"):
            return self.backbone_hits
        if question.origin in LEAD_ORIGINS:
            # (asked inside the one page a link or a cross-reference points to, it reads that page as deep as
            # a section's question reads the corpus: the page is what the reader was sent to)
            return self.hits_per_question if question.document_id else max(1, self.hits_per_question // 2)
        return self.hits_per_question

    def _search(self, questions: Sequence[Question], vectors: Sequence[QueryVectors]) -> list[list[Passage]]:
        filters = [SearchFilters(document_ids=[q.document_id] if q.document_id else ()) for q in questions]
        found: list[list[SearchHit]] = [[] for _ in questions]
        for k in sorted({self._k(q) for q in questions}):
            mine = [i for i, q in enumerate(questions) if self._k(q) == k]
            batch = self.searcher.search_vectors(
                [vectors[i] for i in mine], k=k, filters=[filters[i] for i in mine], fusion=self.fusion
            )
            for i, h in zip(mine, batch, strict=True):
                found[i] = h
        # Neighbours of each question's best hits, in one lookup: the sentence that answers is often just
        # across a chunk boundary.
        tops = [
            h
            for q, hits in zip(questions, found, strict=True)
            if q.origin not in LEAD_ORIGINS
            for h in hits[:3]
        ]
        expanded = {h.chunk_id: h.neighbours for h in self.searcher.with_neighbours(tops, 1)}
        dense = self._dense(questions, vectors, filters)
        out: list[list[Passage]] = []
        for hits, nearest in zip(found, dense, strict=True):
            close = {h.chunk_id: h.score for h in nearest}
            passages: list[Passage] = []
            # A chunk the search returned is read at its own rank, as a hit, even where it is also next to
            # a better hit.
            seen: set[str] = set()
            own = {h.chunk_id for h in hits}
            for rank, hit in enumerate(hits):
                near = [n for n in expanded.get(hit.chunk_id, []) if n.chunk_id not in own]
                for item in [hit, *near]:
                    if item.chunk_id not in seen:
                        seen.add(item.chunk_id)
                        passages.append(
                            hit_passage(
                                item, rank, hit.score, close.get(item.chunk_id), neighbour=item is not hit
                            )
                        )
            if nearest and nearest[0].chunk_id not in seen:
                # The passage closest in meaning, where fusion ranked it out of the hits: how close the
                # request's search came to its topic is measured on it (ranked last, it is not read).
                passages.append(hit_passage(nearest[0], len(hits), nearest[0].score, nearest[0].score))
            out.append(passages)
        return out

    def _dense(
        self, questions: Sequence[Question], vectors: Sequence[QueryVectors], filters: Sequence[SearchFilters]
    ) -> list[list[SearchHit]]:
        """The dense search's hits of the request as written, with their cosines as scores (fused scores
        rank but do not say how close the closest passage is: this does, on one absolute scale)."""
        mine = [i for i, q in enumerate(questions) if q.origin == "query"]
        out: list[list[SearchHit]] = [[] for _ in questions]
        if not mine:
            return out
        batch = self.searcher.search_vectors(
            [vectors[i] for i in mine], k=QUERY_HITS, mode="dense", filters=[filters[i] for i in mine]
        )
        for i, hits in zip(mine, batch, strict=True):
            out[i] = list(hits)
        return out

    def texts(self, chunk_ids: Sequence[str]) -> dict[str, str]:
        """The chunks as the index has them now (re-read, not remembered: a document may have changed)."""
        found = self.searcher.chunks(sorted(set(chunk_ids)))
        return {chunk_id: hit.content for chunk_id, hit in found.items()}

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
            if question.document_id:  # (asked inside a document of the corpus: no question for the web)
                return []
            async with limit:
                chunks = await self.web.gather(question.text, dense)
            return [web_passage(chunk, rank) for rank, chunk in enumerate(chunks)]

        return list(await asyncio.gather(*(one(q, v[0]) for q, v in zip(questions, vectors, strict=True))))

    def holds(self, document_ids: Sequence[str]) -> set[str]:
        return set()  # (a page of the web is searched by its words, never inside by id)

    def texts(self, chunk_ids: Sequence[str]) -> dict[str, str]:
        """The chunks of the pages as this run fetched and converted them."""
        return {i: self.web.chunks[i].text for i in chunk_ids if i in self.web.chunks}

    def metrics(self) -> Any:
        return self.web.metrics()

    async def aclose(self) -> None:
        await self.web.aclose()
