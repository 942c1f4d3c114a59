"""Planning: seed questions per template section, with the guardrail that no required section goes unasked.

The extractive planner (no LLM) asks each section's guiding questions about the query, or, for a section
without any, its description applied to the query. Any planner (the LLM one plugs in here) is followed by
``guard_plan``: every required section gets at least one question whatever the planner did, duplicates
merge (their sections join), and the user's question is searched verbatim once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Protocol

from sleuth.agent.events import PlannedQuestion
from sleuth.agent.research.request import Request, classify
from sleuth.agent.research.text import named_things, term_set
from sleuth.agent.templates import SectionSpec, Template


@dataclass
class Question:
    id: str
    text: str
    sections: list[str]
    depth: int = 0
    origin: str = "plan"
    priority: float = 1.0
    #: Ask inside this document only (cross-references).
    document_id: str | None = None
    parent: str | None = None
    children: list[str] = field(default_factory=list)

    def planned(self) -> PlannedQuestion:
        return PlannedQuestion(
            id=self.id, text=self.text, sections=self.sections, depth=self.depth, origin=self.origin
        )


class Planner(Protocol):
    def plan(self, request: Request, template: Template) -> list[Question]: ...


class ExtractivePlanner:
    """Questions from the template itself: guiding questions about the request's subject, else the
    section's description."""

    def plan(self, request: Request, template: Template) -> list[Question]:
        questions: list[Question] = []
        for section in template.sections:
            if section.kind == "summary" or answered_by_asks(section, request):
                continue  # the summary is answered by the request's own asks
            for text in section_questions(section, request):
                questions.append(Question("", text, [section.id]))
        return questions


def answered_by_asks(section: SectionSpec, request: Request) -> bool:
    """A findings section with no aspect of its own (no keywords: a brief's key findings and details) is, for
    a long request, what its own asks find: "What are the key facts about books Django page last requests?"
    asks the request's subject words back, and what it finds displaces the answers to the asks. A section
    with an aspect (risks, competitors, what is unknown) is asked about it as ever."""
    return request.long and section.kind == "findings" and not section.keywords


def topic(request: Request) -> str:
    """What template questions are asked about: a short request that is a topic ("the graphene battery
    market") as written, anything else (a question, a long request) by its subject."""
    text = " ".join(request.text.split()).rstrip("?.!").strip()
    is_topic = not request.long and len(text.split()) <= 8 and classify(request.text) != "ask"
    return text if is_topic or not request.subject else request.subject


def section_questions(section: SectionSpec, request: Request) -> list[str]:
    about = topic(request)
    if section.questions:
        # "{query}" alone is the request itself, which the plan asks anyway
        return [_fill(q, about) for q in section.questions if q.strip() != "{query}"]
    return [f"{section.title}: {section.description.rstrip('.')} ({about})"]


def _fill(template_text: str, about: str) -> str:
    text = template_text.replace("{query}", about).replace("{subject}", about)
    return re.sub(r"\s+", " ", text).strip()


def guard_plan(
    planned: list[Question], request: Request, template: Template, *, limit: int
) -> list[Question]:
    """The plan a run executes: the request searched as written and by each of its asks and constraints,
    required sections covered, no duplicates."""
    merged: dict[str, Question] = {}
    summary = [s.id for s in template.sections if s.kind == "summary"]
    every = summary or [s.id for s in template.sections]
    verbatim = Question("", request.text.strip(), every, origin="query")
    asks = [Question("", text, every, origin="ask") for text in request.asks]
    conditions = [Question("", text, every, origin="constraint") for text in request.constraints]
    named = [] if request.long else [Question("", t, every, origin="ask") for t in query_parts(request.text)]
    for question in [verbatim, *asks, *named, *conditions, *planned]:
        key = _norm(question.text)
        if not key:
            continue
        if key in merged:
            merged[key].sections = sorted(set(merged[key].sections) | set(question.sections))
        else:
            merged[key] = question
    questions = list(merged.values())[: max(limit, 1)]
    covered = {s for q in questions for s in q.sections}
    if request.asks:
        covered |= {s.id for s in template.sections if answered_by_asks(s, request)}
    for section in template.sections:  # after the cut: the guardrail's questions are never cut off
        if section.required and section.id not in covered:
            ask = section_questions(section, request) or [request.text]
            questions.append(Question("", ask[0], [section.id], origin="guard"))
    for number, question in enumerate(questions, 1):
        question.id = f"q{number}"
    return questions


def query_parts(query: str) -> list[str]:
    """When the query names several things ("China, USA, Canada and France"), one question per thing,
    with the query's other words: the extractive form of decomposing a question into its parts."""
    names = list(dict.fromkeys(named_things(query)))
    if len(names) < 2:
        return []
    name_words = {w for name in names for w in name.split()}
    focus = [w for w in re.findall(r"[^\W\d_]+", query) if w not in name_words and term_set(w)]
    rest = " ".join(dict.fromkeys(w.lower() for w in focus))
    return [f"{name} {rest}".strip() for name in names]


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))
