"""Research against judged questions: how many gold sources the reports cite, next to one hybrid search.

The comparison is at equal size: for each question, the baseline is a single hybrid search of the question
returning as many documents as that question's report cites. Research wins only by choosing better
documents, not by citing more of them.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from sleuth.agent.events import RunComplete
from sleuth.agent.report import Report
from sleuth.agent.research.options import ResearchOptions
from sleuth.agent.research.pipeline import ResearchRun
from sleuth.agent.runs import write_report
from sleuth.agent.templates import Template
from sleuth.ingest.errors import InputError
from sleuth.retrieval.search import Searcher


class EvalError(InputError, ValueError):
    """A questions file that cannot be used; one line naming the file, the line and the reason."""


@dataclass(frozen=True, slots=True)
class JudgedQuestion:
    id: str
    question: str
    gold: frozenset[str]


@dataclass
class QuestionResult:
    id: str
    question: str
    gold: list[str]
    cited: list[str]
    baseline: list[str]
    statuses: dict[str, str]
    seconds: float
    metrics: dict[str, Any] = field(default_factory=dict)

    @property
    def recall(self) -> float:
        return _share(self.cited, self.gold)

    @property
    def baseline_recall(self) -> float:
        return _share(self.baseline, self.gold)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "question": self.question,
            "gold": self.gold,
            "cited": self.cited,
            "baseline": self.baseline,
            "recall": self.recall,
            "precision": _precision(self.cited, self.gold),
            "baseline_recall": self.baseline_recall,
            "baseline_precision": _precision(self.baseline, self.gold),
            "statuses": self.statuses,
            "seconds": round(self.seconds, 3),
            "questions_asked": self.metrics.get("questions"),
            "stop_reason": self.metrics.get("stop_reason"),
        }


def load_questions(path: Path) -> list[JudgedQuestion]:
    out: list[JudgedQuestion] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            gold = row["gold_sources"]
            if not isinstance(gold, list) or not gold:
                raise ValueError("gold_sources must be a non-empty list")
            out.append(
                JudgedQuestion(str(row["id"]), str(row["question"]), frozenset(_key(str(g)) for g in gold))
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise EvalError(f"{path}:{number}: {exc}") from exc
    if not out:
        raise EvalError(f"{path}: no questions")
    return out


#: Builds the research run of one judged question (the composition root's ``research_run``).
RunFactory = Callable[[str, str, Template, ResearchOptions], ResearchRun]


def evaluate_research(
    new_run: RunFactory,
    searcher: Searcher,
    template: Template,
    questions: Sequence[JudgedQuestion],
    options: ResearchOptions,
    *,
    out_dir: Path | None = None,
    progress: Callable[[], None] | None = None,
) -> list[QuestionResult]:
    rows: list[QuestionResult] = []
    for judged in questions:
        started = time.monotonic()
        run = new_run(f"eval-{judged.id}", judged.question, template, options)
        report = asyncio.run(_research(run, judged))
        seconds = time.monotonic() - started
        cited = _cited(report)
        ranked = searcher.rank_documents(judged.question, k=max(1, len(cited)))
        baseline = [_key(doc) for doc, _ in ranked]
        if out_dir is not None:
            write_report(report, out_dir / judged.id)
        rows.append(
            QuestionResult(
                judged.id,
                judged.question,
                sorted(judged.gold),
                cited,
                baseline,
                {s.id: s.status for s in report.sections},
                seconds,
                report.metrics,
            )
        )
        if progress:
            progress()
    return rows


async def _research(run: ResearchRun, judged: JudgedQuestion) -> Report:
    async for event in run.events():
        if isinstance(event, RunComplete):
            return event.report
    raise RuntimeError(f"research on {judged.id} ended without a report")


def _cited(report: Report) -> list[str]:
    return list(dict.fromkeys(_key(s.document_id or s.url or "") for s in report.sources))


def summarize(rows: Sequence[QuestionResult]) -> dict[str, Any]:
    statuses: dict[str, int] = {}
    for row in rows:
        for status in row.statuses.values():
            statuses[status] = statuses.get(status, 0) + 1
    n = max(len(rows), 1)
    return {
        "questions_run": len(rows),
        "research": {
            "recall": sum(r.recall for r in rows) / n,
            "precision": sum(_precision(r.cited, r.gold) for r in rows) / n,
            "documents": sum(len(r.cited) for r in rows) / n,
        },
        "search": {
            "recall": sum(r.baseline_recall for r in rows) / n,
            "precision": sum(_precision(r.baseline, r.gold) for r in rows) / n,
            "documents": sum(len(r.baseline) for r in rows) / n,
        },
        "statuses": statuses,
        "seconds_per_question": sum(r.seconds for r in rows) / n,
    }


def unknown_gold(questions: Sequence[JudgedQuestion], document_ids: Collection[str]) -> list[str]:
    """Gold document ids (not URLs) that name no document among ``document_ids``: questions that cite them
    can only score 0, which usually means the questions were written for another corpus or id scheme."""
    return sorted({g for q in questions for g in q.gold if "://" not in g and g not in document_ids})


def _key(source: str) -> str:
    """Gold sources and cited ones compare as document ids, or as URLs without scheme case or fragment."""
    if "://" not in source:
        return source
    parts = urlsplit(source)
    path = parts.path.rstrip("/") or "/"
    query = f"?{parts.query}" if parts.query else ""
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}{path}{query}"


def _share(found: Sequence[str], gold: Sequence[str] | frozenset[str]) -> float:
    return len(set(found) & set(gold)) / len(gold) if gold else 0.0


def _precision(found: Sequence[str], gold: Sequence[str] | frozenset[str]) -> float:
    return len(set(found) & set(gold)) / len(found) if found else 0.0
