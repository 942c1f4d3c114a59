"""What a research run knows as it goes: the ledger, the questions asked, the documents seen, and how the run
judges "on topic" (its anchor). Discovery writes it; citation and the report read it."""

from __future__ import annotations

from dataclasses import dataclass, field

from sleuth.agent.research.evidence import Ledger, Passage
from sleuth.agent.research.plan import Question
from sleuth.agent.research.sources import QueryVectors


@dataclass
class RunState:
    ledger: Ledger
    questions: dict[str, Question] = field(default_factory=dict)
    asked: set[str] = field(default_factory=set)
    #: Documents the searches saw per section (what "where the corpus allows" is measured against).
    seen_documents: dict[str, set[str]] = field(default_factory=dict)
    levels: int = 0
    #: Candidate quotes left out for being far from the user's query.
    off_topic: int = 0
    stop_reason: str = ""
    seconds: dict[str, float] = field(default_factory=dict)
    #: The user's query as the searches encoded it (sparse weights by token, and both vectors).
    query_weights: dict[int, float] = field(default_factory=dict)
    query_vectors: QueryVectors | None = None
    #: Pairs the cross-encoder read (where a run spends its time).
    judged_pairs: int = 0
    #: A long request's asks that were asked again with the request's subject, in the form they were answered
    #: (by the ask as written).
    answered_as: dict[str, str] = field(default_factory=dict)

    def remember(self, question: Question, passages: list[Passage]) -> None:
        """Documents seen for the question's sections."""
        for section in question.sections:
            self.seen_documents.setdefault(section, set()).update(p.document_key for p in passages)
