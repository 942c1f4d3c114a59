"""Each run's folder: report.md, report.json and, for a run paused for review, the ledger a reviewer edits.

Files live apart from the run store (whatever keeps the event log), under ``runs_dir/<run_id>/``, unless a
run is told to write its report elsewhere (``--out``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sleuth.agent.report import Report, render_markdown

LEDGER_FILE = "ledger.json"


@dataclass(frozen=True, slots=True)
class ReportFiles:
    markdown: Path
    json: Path


REPORT_SUFFIXES = frozenset({".md", ".json"})


def report_files(out: Path, *, named: bool = False) -> ReportFiles:
    """Where a report goes: ``DIR/report.md`` and ``DIR/report.json``, or, where ``out`` may name a report
    file (``named``: research's ``--out``, not eval's, whose ``DIR/<id>`` is always a folder) and does
    (``brief.md`` or ``brief.json``, not an existing folder), that file and its twin beside it
    (``brief.md`` and ``brief.json``): a user who types ``--out brief.md`` wants a file, not a folder named
    so."""
    suffix = out.suffix.lower()
    if named and suffix in REPORT_SUFFIXES and not out.is_dir():
        markdown = out if suffix == ".md" else out.with_suffix(".md")
        return ReportFiles(markdown, out if suffix == ".json" else out.with_suffix(".json"))
    return ReportFiles(out / "report.md", out / "report.json")


def write_report(report: Report, out: Path, *, named: bool = False) -> ReportFiles:
    """The report's two files under ``out`` (see ``report_files``)."""
    files = report_files(out, named=named)
    files.markdown.parent.mkdir(parents=True, exist_ok=True)
    files.json.write_text(json.dumps(report.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n")
    files.markdown.write_text(render_markdown(report))
    return files


class RunFolders:
    def __init__(self, root: Path) -> None:
        self.root = root.expanduser()

    def path(self, run_id: str) -> Path:
        """The run's folder (not created)."""
        return self.root / run_id

    def ensure(self, run_id: str) -> Path:
        path = self.path(run_id)
        path.mkdir(parents=True, exist_ok=True)
        return path

    def ledger(self, run_id: str) -> Path:
        return self.path(run_id) / LEDGER_FILE

    def write_ledger(self, run_id: str, ledger: list[dict[str, Any]]) -> Path:
        path = self.ensure(run_id) / LEDGER_FILE
        path.write_text(json.dumps(ledger, ensure_ascii=False, indent=2) + "\n")
        return path
