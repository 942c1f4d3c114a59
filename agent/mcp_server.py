"""The MCP server (official ``mcp`` SDK, stdio): ``search``, ``research`` and ``templates`` over the corpus,
so that editors and agents can use it directly. One runtime serves every call."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer

from sleuth.agent.events import RunComplete, RunFailed
from sleuth.agent.report import Report
from sleuth.agent.research.pipeline import ResearchRun
from sleuth.agent.research.service import ReportFiles, drive, options_from
from sleuth.agent.runs import RunStore, new_run_id
from sleuth.agent.runtime import Runtime
from sleuth.agent.settings import Settings
from sleuth.agent.templates import TemplateLibrary
from sleuth.retrieval.search import SearchFilters


def build_server(settings: Settings, runtime: Runtime) -> MCPServer:
    server = MCPServer("sleuth", instructions="Search and research over a local document corpus.")
    templates = TemplateLibrary(settings.templates_dir)

    @server.tool(description="Hybrid search over the corpus: the k best chunks with their sources.")
    def search(query: str, k: int = 8) -> list[dict[str, Any]]:
        hits = runtime.searcher.search(query, k=max(1, min(k, 50)), filters=SearchFilters())
        keys = ("chunk_id", "document_id", "score", "section_path", "content", "source", "page_start")
        return [{key: getattr(h, key) for key in keys} for h in hits]

    @server.tool(name="templates", description="The report templates: name, title and sections.")
    def list_templates() -> list[dict[str, Any]]:
        out = []
        for template in templates:
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
    async def research(
        query: str, template: str = "brief", depth: int = 2, web: bool = False
    ) -> dict[str, Any]:
        spec = templates.load(template)
        options = options_from(
            settings,
            depth=max(0, min(depth, 6)),
            web=web and bool(settings.searxng_url),
            llm=bool(settings.llm_base_url and settings.llm_model),
        )
        store = RunStore(settings.runs_dir)
        files: list[ReportFiles] = []
        report: dict[str, Any] | None = None
        try:
            run = ResearchRun(runtime, new_run_id(), query, spec, options)
            async for event in drive(run, store, on_files=files.append):
                if isinstance(event, RunComplete):
                    report = Report.model_validate(event.report).model_dump(mode="json")
                elif isinstance(event, RunFailed):
                    raise RuntimeError(f"research failed: {event.error}")
        finally:
            store.close()
        return {"report": report, "report_md": str(files[-1].markdown) if files else None}

    return server
