"""The steps of a research run that an LLM can take over, as one bundle.

Extractive steps (no LLM) are the default; ``sleuth.agent.llm.steps.llm_steps`` builds the same bundle with
an LLM client behind the planner, the writer, the quote reader, the fact extractor and the lead writer. The
research run only sees this bundle, so the research package never imports the LLM package, and what each
step counts is reported through ``metrics`` instead of type checks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sleuth.agent.research.evidence import Evidence, Passage
from sleuth.agent.research.plan import ExtractivePlanner, Planner
from sleuth.agent.research.synthesis import ExtractiveSynthesizer, Synthesizer
from sleuth.agent.templates import SectionSpec


class QuoteReader(Protocol):
    """Reads a question's best passages and copies the sentences that answer it (verbatim, or dropped)."""

    def quotes(self, question: str, passages: Sequence[Passage]) -> list[tuple[Passage, str]]: ...


class FactFiller(Protocol):
    """Fills a section's typed ``fields`` from its cited evidence."""

    def extract(self, section: SectionSpec, items: Sequence[Evidence]) -> dict[str, Any] | None: ...


class FollowUps(Protocol):
    """Follow-up questions about what the evidence mentions without explaining it."""

    def questions(self, query: str, quotes: Sequence[str], limit: int = 3) -> list[str]: ...


def _no_metrics() -> dict[str, Any] | bool:
    return False


def _nothing() -> None:
    return None


@dataclass
class ResearchSteps:
    planner: Planner = field(default_factory=ExtractivePlanner)
    synthesizer: Synthesizer = field(default_factory=ExtractiveSynthesizer)
    scorer: QuoteReader | None = None
    facts: FactFiller | None = None
    lead_writer: FollowUps | None = None
    #: What the steps report in ``metrics.llm`` (False: no LLM was used).
    metrics: Callable[[], dict[str, Any] | bool] = _no_metrics
    #: Releases what the steps hold (an HTTP client).
    close: Callable[[], None] = _nothing


def extractive_steps() -> ResearchSteps:
    """Every step without an LLM: planning from the template, quotes as claims."""
    return ResearchSteps()
