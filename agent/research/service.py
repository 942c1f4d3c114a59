"""Running research the way every front end does (CLI, HTTP API, MCP): options from settings, the run's
event stream recorded in the run store, report files written at the end.

``drive`` is the composition of the pipeline with its standing consumers: each event is appended to the run
store (numbered there) and passed on, as stored, to whoever displays it; a ``complete`` event's report is
saved as an artifact and written as report.md and report.json; a ``review`` event leaves the ledger in the run
folder for the user to edit. The pipeline itself never touches a file.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sleuth.agent.events import ReviewReady, RunComplete, RunEvent
from sleuth.agent.report import Report, render_markdown
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.pipeline import ResearchOptions, ResearchRun
from sleuth.agent.runs import RunStore
from sleuth.agent.settings import Settings

LEDGER_FILE = "ledger.json"


class ResearchError(RuntimeError):
    """A research request that cannot run; ``str()`` is one line."""


def options_from(
    settings: Settings,
    *,
    depth: int | None = None,
    corpus: bool = True,
    web: bool = False,
    llm: bool = False,
    review: bool = False,
) -> ResearchOptions:
    return ResearchOptions(
        depth=settings.research_depth if depth is None else depth,
        use_corpus=corpus,
        use_web=web,
        use_llm=llm,
        review=review,
        max_questions=settings.max_questions,
        max_evidence=settings.max_evidence,
        time_budget=settings.time_budget,
        hits_per_question=settings.hits_per_question,
        evidence_per_question=settings.evidence_per_question,
        min_quote_coverage=settings.min_quote_coverage,
        relative_coverage=settings.relative_coverage,
        relevance_margin=settings.relevance_margin,
        lead_margin=settings.lead_margin,
        aspect_margin=settings.aspect_margin,
        max_leads_per_level=settings.max_leads_per_level,
        max_sources=settings.max_sources,
        stop_when_covered=settings.stop_when_covered,
        route_min_similarity=settings.route_min_similarity,
        stale_days=settings.stale_days,
        fanout=settings.fanout,
        fusion=settings.fusion,
    )


@dataclass(frozen=True, slots=True)
class ReportFiles:
    markdown: Path
    json: Path


def write_report(report: Report, folder: Path) -> ReportFiles:
    folder.mkdir(parents=True, exist_ok=True)
    files = ReportFiles(folder / "report.md", folder / "report.json")
    files.json.write_text(json.dumps(report.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n")
    files.markdown.write_text(render_markdown(report))
    return files


async def drive(
    run: ResearchRun,
    store: RunStore,
    *,
    out_dir: Path | None = None,
    resume_from: list[Evidence] | None = None,
    on_files: Callable[[ReportFiles], None] | None = None,
) -> AsyncIterator[RunEvent]:
    """Run (or resume) ``run``, recording every event; yields the events as stored."""
    if resume_from is None:
        store.create(run.run_id, run.query, run.template.name, run.options.as_dict())
        stream = run.events()
    else:
        stream = run.resume(resume_from)
    folder = out_dir or store.run_dir(run.run_id)
    async for event in stream:
        stored = store.record(event)
        if isinstance(event, RunComplete):
            report = Report.model_validate(event.report)
            store.save_artifact(run.run_id, "report", event.report)
            store.set_summary(run.run_id, _summary(report))
            files = write_report(report, folder)
            if on_files is not None:
                on_files(files)
        elif isinstance(event, ReviewReady):
            ledger = [e.model_dump(mode="json") for e in run.state.ledger]
            store.save_artifact(run.run_id, "ledger", ledger)
            path = store.run_dir(run.run_id) / LEDGER_FILE
            path.write_text(json.dumps(ledger, ensure_ascii=False, indent=2) + "\n")
        yield stored


def _summary(report: Report) -> dict[str, Any]:
    statuses: dict[str, int] = {}
    for section in report.sections:
        statuses[section.status] = statuses.get(section.status, 0) + 1
    return {"statuses": statuses, "evidence": len(report.evidence), "sources": len(report.sources)}


def reviewed_ledger(store: RunStore, run_id: str) -> list[Evidence]:
    """The ledger a reviewer left: the run folder's ledger.json (edited), else the stored artifact."""
    path = store.folder / run_id / LEDGER_FILE
    data: Any
    if path.is_file():
        try:
            data = json.loads(path.read_text())
        except ValueError as exc:
            raise ResearchError(f"{path}: not valid JSON ({exc})") from exc
    else:
        data = store.artifact(run_id, "ledger")
    if not isinstance(data, list):
        raise ResearchError(f"run {run_id} has no evidence ledger to resume from (was it run with --review?)")
    try:
        return [Evidence.model_validate(item) for item in data]
    except ValueError as exc:
        raise ResearchError(f"{path}: an evidence entry is malformed ({str(exc).splitlines()[0]})") from exc
