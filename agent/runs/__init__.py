"""Research runs: the store of their events and artifacts, and their folders of report files."""

from sleuth.agent.runs.base import INTERRUPTED, RunNotFoundError, RunRow, RunStore, new_run_id
from sleuth.agent.runs.folders import LEDGER_FILE, ReportFiles, RunFolders, report_files, write_report
from sleuth.agent.runs.sqlite import SqliteRunStore

__all__ = [
    "INTERRUPTED",
    "LEDGER_FILE",
    "ReportFiles",
    "RunFolders",
    "RunNotFoundError",
    "RunRow",
    "RunStore",
    "SqliteRunStore",
    "new_run_id",
    "report_files",
    "write_report",
]
