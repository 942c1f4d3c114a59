"""Running research the way every front end does (CLI, HTTP API, MCP, evaluation): the run's event stream
recorded in the run store, report files written at the end.

``drive`` is the composition of the pipeline with its standing consumers: each event is appended to the run
store (numbered there) and passed on, as stored, to whoever displays it; a ``complete`` event's report is
saved as an artifact and written as report.md and report.json; a ``review`` event leaves the ledger in the run
folder for the user to edit. The pipeline itself never touches a file. Store calls may block (SQLite, or a
server's round trip), so they run off the event loop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from sleuth.agent.events import ReviewReady, RunComplete, RunEvent
from sleuth.agent.report import Report
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.pipeline import ResearchRun
from sleuth.agent.runs import ReportFiles, RunFolders, RunStore, write_report
from sleuth.ingest.errors import InputError, first_line


class ResearchError(InputError):
    """A research request that cannot run; ``str()`` is one line."""


async def drive(
    run: ResearchRun,
    store: RunStore,
    folders: RunFolders,
    *,
    out_dir: Path | None = None,
    resume_from: list[Evidence] | None = None,
    on_files: Callable[[ReportFiles], None] | None = None,
) -> AsyncIterator[RunEvent]:
    """Run (or resume) ``run``, recording every event; yields the events as stored."""
    if resume_from is None:
        await asyncio.to_thread(store.create, run.run_id, run.query, run.template.name, run.options.as_dict())
        stream = run.events()
    else:
        stream = run.resume(resume_from)
    async for event in stream:
        stored = await asyncio.to_thread(store.record, event)
        if isinstance(event, RunComplete):
            report = event.report
            await asyncio.to_thread(store.save_artifact, run.run_id, "report", report.model_dump(mode="json"))
            await asyncio.to_thread(store.set_summary, run.run_id, _summary(report))
            files = (
                write_report(report, out_dir, named=True)
                if out_dir is not None
                else write_report(report, folders.ensure(run.run_id))
            )
            if on_files is not None:
                on_files(files)
        elif isinstance(event, ReviewReady):
            ledger = [e.model_dump(mode="json") for e in run.state.ledger]
            await asyncio.to_thread(store.save_artifact, run.run_id, "ledger", ledger)
            folders.write_ledger(run.run_id, ledger)
        yield stored


def _summary(report: Report) -> dict[str, Any]:
    statuses: dict[str, int] = {}
    for section in report.sections:
        statuses[section.status] = statuses.get(section.status, 0) + 1
    return {"statuses": statuses, "evidence": len(report.evidence), "sources": len(report.sources)}


def reviewed_ledger(store: RunStore, folders: RunFolders, run_id: str) -> list[Evidence]:
    """The ledger a reviewer left: the run folder's ledger.json (edited), else the stored artifact."""
    path = folders.ledger(run_id)
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
        raise ResearchError(f"{path}: an evidence entry is malformed ({first_line(exc)})") from exc
