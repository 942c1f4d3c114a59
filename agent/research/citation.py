"""Citation: which documents a report cites, and which of the evidence goes into it.

A cross-encoder reads the query with the best passage of every document any question retrieved (it judges
relevance better than comparing two vectors can, and a run's few dozen documents cost a fraction of a second);
the ``max_sources`` best are cited. A chosen document that has no evidence yet gets a quote cut from that
passage for the query itself. Without a pool (a resumed run) the documents of the ledger are ranked the same
way. Measured on FanOutQA in docs/BENCHMARKS.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from sleuth.agent.research.admission import READ_LIMIT, Admission
from sleuth.agent.research.evidence import Evidence, Passage
from sleuth.agent.research.options import ResearchOptions
from sleuth.agent.research.plan import Question
from sleuth.agent.research.sources import EvidenceSource
from sleuth.agent.research.state import RunState
from sleuth.agent.templates import Template
from sleuth.ingest.contextualize import contextualize

#: Scores of (query, passage text) pairs by a cross-encoder, higher is more relevant.
Reranker = Callable[[str, list[str]], list[float]]


class Citation:
    def __init__(
        self,
        query: str,
        template: Template,
        options: ResearchOptions,
        state: RunState,
        *,
        sources: Sequence[EvidenceSource],
        admission: Admission,
        rerank: Reranker,
    ) -> None:
        self.query = query
        self.template = template
        self.options = options
        self.state = state
        self.sources = sources
        self.admission = admission
        self.rerank = rerank

    def choose_sources(self) -> dict[str, float]:
        """The documents a report may cite, each with its relevance to the user's query."""
        state = self.state
        ledger = state.ledger
        pool = dict(state.pool)
        for e in ledger.live():  # documents known only from the ledger (resumed runs, pins)
            if e.document_key not in pool:
                pool[e.document_key] = Passage(
                    kind=e.kind,
                    text=state.passages.get(e.id, e.quote),
                    document_id=e.document_id,
                    title=e.title,
                    section_path=e.section_path,
                    page=e.page,
                    date=e.date,
                    source=e.source,
                    chunk_id=e.chunk_id,
                    url=e.url,
                )
        if not pool:
            return {}
        pool.update(self._best_for_query(list(pool)))
        keys = list(pool)
        read = [
            contextualize(p.text, section_path=p.section_path, title=p.title, limit=READ_LIMIT)
            for p in pool.values()
        ]
        scores = dict(zip(keys, self.rerank(self.query, read), strict=True))
        chosen = sorted(keys, key=lambda k: -scores[k])[: self.options.max_sources]
        have = {e.document_key for e in ledger.live()}
        missing = [pool[k] for k in chosen if k not in have]
        if missing and state.query_weights:
            # A chosen document found only by a search gets a quote cut for the query itself; it must still
            # be on the run's topic, as every piece of evidence must.
            query = Question("q0", self.query, [s.id for s in self.template.sections], origin="plan")
            items = self.admission.candidates(query, missing, state.query_weights)
            self.admission.score_relevance(
                [(query, items)], {p.chunk_id: p.text for p in missing if p.chunk_id}
            )
            ledger.limit = max(ledger.limit, len(ledger) + len(items))  # the citation step is not discovery
            self.admission.admit(items, margin=self.options.relevance_margin)
            cited = {e.document_key for e in ledger.live()}
            chosen = [k for k in chosen if k in cited]
        state.uncited_documents = max(0, len(pool) - len(chosen))
        return {k: scores[k] for k in chosen}

    def _best_for_query(self, documents: list[str]) -> dict[str, Passage]:
        """Each document's passage that best matches the user's query, asked of the source that holds it."""
        state = self.state
        if state.query_vectors is None:
            return {}
        out: dict[str, Passage] = {}
        for source in self.sources:
            mine = [d for d in documents if d in state.pool and state.pool[d].kind == source.kind]
            if mine:
                out.update(source.best_for_query(state.query_vectors, mine))
        return out

    def cited_only(self, items: list[Evidence], ranking: Mapping[str, float]) -> list[Evidence]:
        """Evidence of the chosen documents (and a reviewer's pins), weighted by its document's relevance.

        The chosen documents are the run's most relevant: their evidence also goes to the summary sections
        (key findings), so that a chosen document is cited even when its quote fits no findings section.
        """
        summary = [s.id for s in self.template.sections if s.kind == "summary"]
        return [
            e.model_copy(
                update={
                    "relevance": round(ranking.get(e.document_key, e.relevance), 4),
                    "sections": sorted({*e.sections, *summary}),
                }
            )
            for e in items
            if e.document_key in ranking or e.pinned
        ]

    def source_texts(self, items: Sequence[Evidence]) -> dict[str, str | None]:
        """The authoritative text behind each piece of evidence, read again from the source that gave it."""
        out: dict[str, str | None] = {e.id: None for e in items}
        for source in self.sources:
            out.update(source.texts([e for e in items if e.kind == source.kind]))
        return out
