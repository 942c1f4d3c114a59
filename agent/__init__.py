"""The application layer: settings, the composition root, research runs, their store, templates and reports.

Imports retrieval and ingest; nothing imports it. Front ends (``sleuth.agent.cli``, ``sleuth.agent.api``,
``sleuth.agent.mcp``) import this face (and ``sleuth.retrieval``'s and ``sleuth.ingest``'s), never the modules
behind it; modules inside the package import each other directly.
"""

from sleuth.agent.events import (
    TERMINAL,
    EvidenceAdded,
    PlannedQuestion,
    PlanReady,
    QuestionFinished,
    QuestionStarted,
    ReviewReady,
    RunComplete,
    RunEvent,
    RunFailed,
    RunStarted,
    SectionStatus,
    SynthesisDone,
    parse_event,
)
from sleuth.agent.report import (
    Claim,
    EvidenceRecord,
    Report,
    SectionReport,
    Source,
    is_title,
    quote_markdown,
    render_markdown,
    title,
)
from sleuth.agent.research.evaluation import (
    EvalError,
    JudgedQuestion,
    evaluate_research,
    load_questions,
    summarize,
    unknown_gold,
)
from sleuth.agent.research.evidence import Evidence
from sleuth.agent.research.options import ResearchOptions
from sleuth.agent.research.pipeline import ResearchRun
from sleuth.agent.research.query import QUERY_PATTERN, QueryError, usable_query
from sleuth.agent.research.service import ResearchError, drive, reviewed_ledger
from sleuth.agent.runs import (
    INTERRUPTED,
    LEDGER_FILE,
    ReportFiles,
    RunFolders,
    RunNotFoundError,
    RunRow,
    RunStore,
    SqliteRunStore,
    new_run_id,
    report_files,
    write_report,
)
from sleuth.agent.runtime import Runtime, SetupError
from sleuth.agent.settings import Settings, SettingsError, load_settings
from sleuth.agent.templates import Template, TemplateError, TemplateLibrary, UnknownTemplateError
from sleuth.agent.wiring import Wiring

__all__ = [
    "INTERRUPTED",
    "LEDGER_FILE",
    "QUERY_PATTERN",
    "TERMINAL",
    "Claim",
    "EvalError",
    "Evidence",
    "EvidenceAdded",
    "EvidenceRecord",
    "JudgedQuestion",
    "PlanReady",
    "PlannedQuestion",
    "QueryError",
    "QuestionFinished",
    "QuestionStarted",
    "Report",
    "ReportFiles",
    "ResearchError",
    "ResearchOptions",
    "ResearchRun",
    "ReviewReady",
    "RunComplete",
    "RunEvent",
    "RunFailed",
    "RunFolders",
    "RunNotFoundError",
    "RunRow",
    "RunStarted",
    "RunStore",
    "Runtime",
    "SectionReport",
    "SectionStatus",
    "Settings",
    "SettingsError",
    "SetupError",
    "Source",
    "SqliteRunStore",
    "SynthesisDone",
    "Template",
    "TemplateError",
    "TemplateLibrary",
    "UnknownTemplateError",
    "Wiring",
    "drive",
    "evaluate_research",
    "is_title",
    "load_questions",
    "load_settings",
    "new_run_id",
    "parse_event",
    "quote_markdown",
    "render_markdown",
    "report_files",
    "reviewed_ledger",
    "summarize",
    "title",
    "unknown_gold",
    "usable_query",
    "write_report",
]
