"""The typed events a research run emits, in order; every consumer (terminal, run store, SSE) reads these.

A run is an async stream of events: the pipeline yields them and does no I/O of its own; the terminal
display draws them, the run store appends them to the run's log, the HTTP API forwards them as Server-Sent
Events. Every event carries the run id, a sequence number (its position in the log, which SSE uses as the
event id for replay) and a timestamp. The last event of a run is ``complete``, ``review`` (paused for the
user to edit the evidence) or ``failed``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from sleuth.agent.report import Report


class RunEvent(BaseModel):
    """What every event carries."""

    model_config = ConfigDict(frozen=True)

    run_id: str
    seq: int = 0
    at: float = 0.0


class PlannedQuestion(BaseModel):
    id: str
    text: str
    sections: list[str]
    depth: int
    origin: str = Field(description="plan, query, lead or backfill")


class RunStarted(RunEvent):
    type: Literal["run_started"] = "run_started"
    query: str
    template: str
    options: dict[str, Any]


class PlanReady(RunEvent):
    type: Literal["plan"] = "plan"
    questions: list[PlannedQuestion]


class QuestionStarted(RunEvent):
    type: Literal["question_started"] = "question_started"
    question: PlannedQuestion


class QuestionFinished(RunEvent):
    type: Literal["question_finished"] = "question_finished"
    question_id: str
    hits: int
    new_evidence: int
    leads: int
    seconds: float


class EvidenceAdded(RunEvent):
    type: Literal["evidence"] = "evidence"
    question_id: str
    evidence_ids: list[str]
    total: int = Field(description="Pieces in the ledger after this addition.")


class SectionStatus(RunEvent):
    type: Literal["section_status"] = "section_status"
    section_id: str
    status: str
    evidence: int
    documents: int


class SynthesisDone(RunEvent):
    type: Literal["synthesis"] = "synthesis"
    section_id: str
    claims: int
    #: Claims a guard refused (uncited, unknown evidence, a number or name its evidence does not hold).
    dropped: int
    #: Claims written but left out by the section's bound (``section_bounds``): an ask's farther documents
    #: beyond ``max_claims``.
    bounded: int = 0


class ReviewReady(RunEvent):
    type: Literal["review"] = "review"
    evidence: int
    message: str


class RunComplete(RunEvent):
    type: Literal["complete"] = "complete"
    report: Report


class RunFailed(RunEvent):
    type: Literal["failed"] = "failed"
    error: str


Event = Annotated[
    RunStarted
    | PlanReady
    | QuestionStarted
    | QuestionFinished
    | EvidenceAdded
    | SectionStatus
    | SynthesisDone
    | ReviewReady
    | RunComplete
    | RunFailed,
    Field(discriminator="type"),
]
_EVENTS: TypeAdapter[Event] = TypeAdapter(Event)
#: The types of the events that end a run's stream (its status afterwards).
TERMINAL = frozenset({"complete", "review", "failed"})


def parse_event(data: dict[str, Any] | str) -> Event:
    """An event back from its JSON (the run store's log, an SSE stream): the one way stored events are
    read."""
    return _EVENTS.validate_json(data) if isinstance(data, str) else _EVENTS.validate_python(data)
