"""From passages to evidence: cut the best quotes of a question's passages, judge how close each is to the
user's query, and admit the ones close enough into the ledger.

Discovery uses this for every question it asks; citation uses it again for a document it chose that has no
quote yet. "Close enough" is relative to the run's anchor (the best quote the verbatim search of the query
found), so it means the same thing whatever the corpus's similarity scale.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from sleuth.agent.research.evidence import Evidence, Passage, QuoteChoice, QuoteSelector, evidence_id
from sleuth.agent.research.options import ResearchOptions
from sleuth.agent.research.plan import Question
from sleuth.agent.research.state import RunState
from sleuth.agent.templates import Template
from sleuth.ingest.contextualize import contextualize
from sleuth.retrieval.encoders import SparseVector

#: Dense vectors of texts (unit length); ``query=True`` for what is asked.
DenseEncoder = Callable[..., np.ndarray]


def weights(sparse: SparseVector) -> dict[int, float]:
    return dict(zip(sparse.indices, sparse.values, strict=True))


#: Characters of a passage a model reads when judging it (the cross-encoder's window, and then some).
READ_LIMIT = 2000


def passage_text(evidence: Evidence, texts: Mapping[str, str]) -> str:
    """The passage a piece of evidence was cut from, as a model reads it (title, heading path, text)."""
    text = texts.get(evidence.chunk_id or "", evidence.quote)
    return contextualize(text, section_path=evidence.section_path, title=evidence.title, limit=READ_LIMIT)


def new_evidence(question: Question, passage: Passage, quote: str, score: float) -> Evidence:
    return Evidence(
        id=evidence_id(passage, quote),
        kind=passage.kind,
        chunk_id=passage.chunk_id,
        url=passage.url,
        document_id=passage.document_id,
        title=passage.title,
        section_path=passage.section_path,
        page=passage.page,
        quote=quote,
        date=passage.date,
        source=passage.source,
        question_id=question.id,
        question=question.text,
        sections=list(question.sections),
        score=round(score, 4),
    )


class Admission:
    """Quotes cut, scored against the query, admitted; the run's state records what was kept and why not."""

    def __init__(
        self,
        query: str,
        template: Template,
        options: ResearchOptions,
        state: RunState,
        *,
        selector: QuoteSelector,
        embed_dense: DenseEncoder,
    ) -> None:
        self.query = query
        self.template = template
        self.options = options
        self.state = state
        self.selector = selector
        self.embed_dense = embed_dense
        self._section_ids = {s.id for s in template.sections}

    def candidates(
        self, question: Question, passages: Sequence[Passage], weights: dict[int, float]
    ) -> list[Evidence]:
        """The question's best quotes (at most ``evidence_per_question`` passages), not yet admitted."""
        if not passages:
            return []
        choices = self.selector.choose(weights, passages)
        best = max((c.coverage for per in choices for c in per), default=0.0)
        # On-topic passages set the bar: a quote far below the question's best is about something else
        # (the same place and the word "market", but cheese instead of batteries).
        floor = max(self.options.min_quote_coverage, self.options.relative_coverage * best)
        pairs = [
            (choice, passage)
            for per_passage, passage in zip(choices, passages, strict=True)
            for choice in per_passage
            if choice.coverage >= floor and choice.own > 0
        ]
        # The search's ranking decides which passages matter (hybrid retrieval is the stronger judge of a
        # passage); the quote score only picks what to cut from each (at most two quotes a passage).
        pairs.sort(key=lambda pair: (pair[1].rank, -pair[0].score))
        taken: list[int] = []
        kept: list[tuple[QuoteChoice, Passage]] = []
        for pair in pairs:
            if id(pair[1]) not in taken:
                if len(taken) == self.options.evidence_per_question:
                    continue
                taken.append(id(pair[1]))
            kept.append(pair)
        return [
            new_evidence(question, passage, passage.text[choice.start : choice.end], choice.score)
            for choice, passage in kept
        ]

    def score_relevance(
        self, candidates: list[tuple[Question, list[Evidence]]], texts: Mapping[str, str]
    ) -> None:
        """Every candidate's similarity to the user's query (dense model, one batch per level): cheap enough
        to steer discovery. The verbatim search sets the anchor, what "on topic" means for this run."""
        items = [e for _, group in candidates for e in group]
        if not items:
            return
        state = self.state
        if state.query_vector is None:
            state.query_vector = self.embed_dense([self.query], query=True)[0]
        vectors = self.embed_dense([passage_text(e, texts) for e in items])
        scored = iter(float(s) for s in vectors @ state.query_vector)
        for question, group in candidates:
            group[:] = [e.model_copy(update={"relevance": round(next(scored), 4)}) for e in group]
            if question.text == self.query and group:
                best = max(e.relevance for e in group)
                state.anchor = best if state.anchor is None else max(state.anchor, best)
        state.passages.update({e.id: passage_text(e, texts) for e in items})

    def margin(self, question: Question) -> float | None:
        """How far below the anchor a question's evidence may fall: the user's own question is trusted by
        rank, as a search is; a lead, a step removed from it, must stay closest to it."""
        if question.text == self.query:
            return None
        if question.origin in ("lead", "llm-lead"):
            return self.options.lead_margin
        aspects = [self.template.section(s).keywords for s in question.sections if s in self._section_ids]
        if aspects and all(aspects):
            # A question about an aspect (risks, funding) finds passages less like the query as a whole;
            # the aspect's own words guard those sections, so the margin is wider.
            return self.options.aspect_margin
        return self.options.relevance_margin

    def admit(self, items: list[Evidence], *, margin: float | None) -> list[Evidence]:
        """New evidence among ``items``: close enough to the query, within the budget, not seen before."""
        anchor = self.state.anchor
        floor = anchor - margin if anchor is not None and margin is not None else None
        new: list[Evidence] = []
        for item in items:
            if floor is not None and item.relevance < floor:
                self.state.off_topic += 1
                continue
            if self.state.ledger.add(item):
                new.append(item)
        return new
