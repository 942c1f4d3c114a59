"""The MCP server (official ``mcp`` SDK, stdio): ``search``, ``research`` and ``templates`` over the corpus,
so that editors and agents can use it directly. One runtime serves every call.

sleuth's exception tree is mapped here once: an error sleuth raised on purpose becomes a ``ToolError``
with its one-line message (the model reads it; the server logs it without a traceback), anything else is a
crash the SDK reports as such.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from sleuth.agent import (
    ReportFiles,
    ResearchError,
    RunComplete,
    RunFailed,
    Runtime,
    TemplateError,
    Wiring,
    drive,
    new_run_id,
    usable_query,
)
from sleuth.ingest import SleuthError
from sleuth.retrieval import SearchFilters

P = ParamSpec("P")
T = TypeVar("T")


def _one_line_errors(tool: Callable[P, Awaitable[T]]) -> Callable[P, Awaitable[T]]:
    @wraps(tool)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await tool(*args, **kwargs)
        except SleuthError as exc:
            raise ToolError(str(exc)) from exc

    return wrapper


def _one_line_errors_sync(tool: Callable[P, T]) -> Callable[P, T]:
    @wraps(tool)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return tool(*args, **kwargs)
        except SleuthError as exc:
            raise ToolError(str(exc)) from exc

    return wrapper


def build_server(wiring: Wiring, runtime: Runtime) -> MCPServer:
    settings = wiring.settings
    server = MCPServer("sleuth", instructions="Search and research over a local document corpus.")
    templates = wiring.templates()

    @server.tool(description="Hybrid search over the corpus: the k best chunks with their sources.")
    @_one_line_errors_sync
    def search(query: str, k: int = 8) -> list[dict[str, Any]]:
        hits = runtime.searcher.search(usable_query(query), k=max(1, min(k, 50)), filters=SearchFilters())
        keys = ("chunk_id", "document_id", "score", "section_path", "content", "source", "page_start")
        return [{key: getattr(h, key) for key in keys} for h in hits]

    @server.tool(name="templates", description="The report templates: name, title and sections.")
    @_one_line_errors_sync
    def list_templates() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for name in templates.names():
            try:
                template = templates.load(name)
            except TemplateError as exc:  # one broken user template does not hide the others
                out.append({"name": name, "error": str(exc)})
                continue
            out.append(
                {
                    "name": template.name,
                    "title": template.title,
                    "sections": [
                        {"id": s.id, "title": s.title, "required": s.required} for s in template.sections
                    ],
                }
            )
        return out

    @server.tool(
        description="Research a question with a report template (see templates); returns the report JSON "
        "(every claim anchored to verbatim evidence) and the path of report.md."
    )
    @_one_line_errors
    async def research(
        query: str, template: str = "brief", depth: int = 2, web: bool = False
    ) -> dict[str, Any]:
        spec = templates.load(template)
        options = wiring.research_options(
            depth=max(0, min(depth, 6)), web=web and settings.web.configured, llm=settings.llm.configured
        )
        store = wiring.run_store()
        files: list[ReportFiles] = []
        report: dict[str, Any] | None = None
        try:
            run = wiring.research_run(runtime, new_run_id(), query, spec, options)
            async for event in drive(run, store, wiring.run_folders(), on_files=files.append):
                if isinstance(event, RunComplete):
                    report = event.report.model_dump(mode="json")
                elif isinstance(event, RunFailed):
                    raise ResearchError(f"research failed: {event.error}")
        finally:
            store.close()
        # Absolute: the MCP host's working folder is not the server's.
        return {"report": report, "report_md": str(files[-1].markdown.resolve()) if files else None}

    return server
