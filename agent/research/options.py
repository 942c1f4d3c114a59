"""What one research run may do: sources, depth, budgets, and how evidence is judged (built from the
settings' ``research`` group by ``ResearchSettings.options``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sleuth.retrieval.store.base import DEFAULT_FUSION, Fusion


@dataclass(frozen=True)
class ResearchOptions:
    depth: int = 2
    use_corpus: bool = True
    use_web: bool = False
    use_llm: bool = False
    review: bool = False
    max_questions: int = 32
    max_evidence: int = 200
    time_budget: float = 300.0
    #: Corpus hits read per question (the request's own searches read ``backbone_hits``).
    hits_per_question: int = 8
    #: Passages of one question that may give evidence.
    evidence_per_question: int = 6
    #: Hits of each of the request's own searches: enough for ``backbone_documents`` distinct documents.
    backbone_hits: int = 20
    #: Top documents of the request's own searches whose best quote is always evidence (when on topic).
    backbone_documents: int = 10
    #: Cross-encoder score a quote must reach to be on the request's topic at all (backbone evidence).
    topic_floor: float = -4.0
    #: Cosine (dense, BGE) of a short question and its search's closest passage at which the search has found
    #: the question's topic even when no quote reaches ``topic_floor``: the report then cites the search's
    #: first document instead of nothing.
    topic_similarity: float = 0.6
    #: How far below the best quote of the request's own search a backbone quote may score.
    topic_gap: float = 8.0
    #: Cross-encoder score a quote must reach to answer the question it was found for.
    answer_floor: float = -1.0
    #: Cross-encoder score a quote must reach against a section's question to be routed to that section,
    #: and how far below its score against the request it may stay.
    route_floor: float = -1.0
    route_lift: float = 2.0
    #: Windows of each passage the cross-encoder reads (shortlisted by the question's term weights).
    windows_per_passage: int = 3
    #: Windows of one question the cross-encoder reads in all (twice as many for the request's own searches);
    #: every passage keeps its best whatever this says.
    windows_per_question: int = 12
    stale_days: int | None = 730
    fanout: int = 4
    fusion: Fusion = DEFAULT_FUSION
    #: Leads followed per level (the most relevant first).
    max_leads_per_level: int = 4
    #: Stop descending once every required section has enough evidence from distinct documents.
    stop_when_covered: bool = False

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)
