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
    def plan(self, query: str, template: Template) -> list[Question]: ...


class ExtractivePlanner:
    """Questions from the template itself: guiding questions, else the section's description."""

    def plan(self, query: str, template: Template) -> list[Question]:
        questions: list[Question] = []
        for section in template.sections:
            for text in section_questions(section, query):
                questions.append(Question("", text, [section.id]))
        return questions


def section_questions(section: SectionSpec, query: str) -> list[str]:
    if section.questions:
        return [_fill(q, query) for q in section.questions]
    return [f"{query}: {section.title.lower()}, {section.description.rstrip('.').lower()}"]


def _fill(template_text: str, query: str) -> str:
    subject = query.strip().rstrip("?.!").strip()
    text = template_text.replace("{query}", subject)
    return re.sub(r"\s+", " ", text).strip()


def guard_plan(planned: list[Question], query: str, template: Template, *, limit: int) -> list[Question]:
    """The plan a run executes: required sections covered, the query asked verbatim, no duplicates."""
    merged: dict[str, Question] = {}
    summary = [s.id for s in template.sections if s.kind == "summary"]
    verbatim = Question("", query.strip(), summary or [s.id for s in template.sections], origin="query")
    every = summary or [s.id for s in template.sections]
    named = [Question("", text, every, origin="query") for text in query_parts(query)]
    for question in [verbatim, *named, *planned]:
        key = _norm(question.text)
        if not key:
            continue
        if key in merged:
            merged[key].sections = sorted(set(merged[key].sections) | set(question.sections))
        else:
            merged[key] = question
    questions = list(merged.values())[: max(limit, 1)]
    covered = {s for q in questions for s in q.sections}
    for section in template.sections:  # after the cut: the guardrail's questions are never cut off
        if section.required and section.id not in covered:
            questions.append(Question("", section_questions(section, query)[0], [section.id], origin="guard"))
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
