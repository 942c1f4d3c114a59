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
    hits_per_question: int = 8
    evidence_per_question: int = 6
    min_quote_coverage: float = 0.05
    relative_coverage: float = 0.6
    route_min_similarity: float = 0.62
    stale_days: int = 730
    fanout: int = 4
    fusion: Fusion = DEFAULT_FUSION
    #: Evidence is kept when its similarity to the user's query is within this of the best quote the
    #: verbatim search found (the dense model's cosine scale).
    relevance_margin: float = 0.06
    #: The same for the evidence of leads (a step removed from the question: held closer).
    lead_margin: float = 0.03
    #: The same for questions about one aspect of the topic (a section with its own vocabulary).
    aspect_margin: float = 0.15
    #: Documents a report cites at most (the most relevant to the query, by the reranker).
    max_sources: int = 5
    #: Leads followed per level (the most relevant first).
    max_leads_per_level: int = 8
    #: Stop descending once every required section has enough evidence from distinct documents.
    stop_when_covered: bool = False

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)
