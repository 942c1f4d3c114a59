"""The desk's routes: pages rendered on the server (Jinja2, autoescaped), their small scripts and styles from
the package, report downloads, and two JSON helpers (``/v1/capabilities``, ``/v1/chunks/{id}``).

Pages are HTML from the server so a finished report paints in one response with no script run first; the
scripts only do what needs a browser: follow a live run, open an evidence card, show upload progress, filter
the runs list. Nothing is fetched from outside the server (air-gapped users run this).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from importlib.resources import files
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape
from pydantic import ValidationError

from sleuth.agent import (
    INTERRUPTED,
    Report,
    RunNotFoundError,
    RunRow,
    RunStore,
    Runtime,
    Template,
    TemplateError,
    TemplateLibrary,
    Wiring,
    is_title,
    render_markdown,
    title,
)
from sleuth.agent.api.desk import export
from sleuth.agent.api.desk.capabilities import capabilities
from sleuth.agent.api.desk.markdown import plain, render, render_marked
from sleuth.agent.api.desk.view import ReportView, build
from sleuth.agent.api.runs import RunManager
from sleuth.ingest import CONVERTIBLE_SUFFIXES, SleuthError
from sleuth.retrieval import SEARCHABLE_TYPES, SearchFilters, SearchHit

log = logging.getLogger(__name__)

#: Starts a run from a research request body (the API's own validation and option checks); returns its id.
StartRun = Callable[[dict[str, Any]], str]

_STATIC = {"desk.css": "text/css", "desk.js": "text/javascript", "run.js": "text/javascript",
           "upload.js": "text/javascript"}  # fmt: skip
_ENV = Environment(
    loader=PackageLoader("sleuth.agent.api.desk", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    trim_blocks=True,
    lstrip_blocks=True,
)


def _static(name: str) -> str:
    return files("sleuth.agent.api.desk").joinpath("static", name).read_text(encoding="utf-8")


def _when(stamp: float | None) -> str:
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M UTC") if stamp else ""


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return ""
    seconds = max(0, round(seconds))
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"


_ENV.filters["when"] = _when
_ENV.filters["duration"] = _duration
_ENV.filters["markdown"] = render
_ENV.filters["plain"] = plain
_ENV.filters["title"] = title
_ENV.tests["title"] = is_title


def page(name: str, **context: Any) -> str:
    return _ENV.get_template(name).render(**context)


def desk_router(  # noqa: PLR0917 - the API's parts, handed over once
    wiring: Wiring,
    runtime: Runtime,
    store: RunStore,
    templates: TemplateLibrary,
    runs: Callable[[], RunManager],
    start: StartRun,
) -> APIRouter:
    """The desk's pages and helpers over the API's own run manager and stores."""
    settings = wiring.settings
    router = APIRouter()

    def _templates() -> list[Template]:
        out = []
        for name in templates.names():
            try:
                out.append(templates.load(name))
            except TemplateError as exc:
                log.warning("template %s not offered: %s", name, exc)
        return out

    def _status(row: RunRow) -> str:
        """The row's status, with what only this process knows: waiting in the queue. A run whose process
        stopped (this server, or a ``sleuth research`` elsewhere) was settled by the store as ``failed``,
        "interrupted"; a ``running`` row is running somewhere."""
        manager = runs()
        if manager.position(row.run_id) is not None:
            return "queued"
        if row.status == "failed" and row.error == INTERRUPTED:
            return "interrupted"
        return row.status

    def _failure(run_id: str) -> str | None:
        error = None
        for data in store.events(run_id):
            if data.get("type") == "failed":
                error = str(data.get("error") or "")
        return error

    def _rows(limit: int = 200) -> list[dict[str, Any]]:
        out = []
        for row in store.list(limit):
            status = _status(row)
            out.append(
                {
                    "row": row,
                    "status": status,
                    "why": _failure(row.run_id) if status == "failed" else None,
                    "seconds": row.updated_at - row.created_at
                    if status not in ("running", "queued")
                    else None,
                }
            )
        return out

    def _home(error: str | None = None, form: dict[str, Any] | None = None) -> str:
        return page(
            "home.html",
            nav="ask",
            templates=_templates(),
            caps=capabilities(settings, runtime),
            rows=_rows(20),
            error=error,
            form=form or {},
        )

    @router.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def home() -> str:
        return await asyncio.to_thread(_home)

    @router.post("/ask", response_class=HTMLResponse, response_model=None, include_in_schema=False)
    async def ask(request: Request) -> Response:
        form = await request.form()
        body: dict[str, Any] = {
            "query": str(form.get("query") or "").strip(),
            "template": str(form.get("template") or ""),
            "corpus": "corpus" in form,
            "web": "web" in form,
            "llm": "llm" in form,
        }
        depth = str(form.get("depth") or "").strip()
        if depth:
            body["depth"] = int(depth) if depth.isdigit() else depth
        try:
            run_id = start(body)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
            return HTMLResponse(await asyncio.to_thread(_home, problems, body), status_code=400)
        except (HTTPException, SleuthError) as exc:
            message = str(exc.detail) if isinstance(exc, HTTPException) else str(exc)
            return HTMLResponse(await asyncio.to_thread(_home, message, body), status_code=400)
        return RedirectResponse(f"/runs/{run_id}", status_code=303)

    @router.get("/runs", response_class=HTMLResponse, include_in_schema=False)
    async def runs_page(q: str = "", status: str = "") -> str:
        rows = await asyncio.to_thread(_rows)
        statuses = sorted({r["status"] for r in rows})
        shown = [r for r in rows if _matches(r, q, status)]
        return page("runs.html", nav="runs", rows=shown, q=q, status=status, statuses=statuses)

    def _run_context(run_id: str) -> dict[str, Any]:
        manager = runs()
        try:
            row: RunRow | None = store.get(run_id)
        except RunNotFoundError:
            row = None
        position = manager.position(run_id)
        if row is None and position is None and not manager.is_live(run_id):
            raise HTTPException(404, f"no run {run_id}")
        status = "queued" if position is not None else (_status(row) if row else "running")
        view: ReportView | None = None
        if row is not None and status == "complete":
            data = store.artifact(run_id, "report")
            if data is not None:
                view = build(Report.model_validate(data))
        template: Template | None = None
        if row is not None:
            try:
                template = templates.load(row.template)
            except TemplateError:
                template = None
        return {
            "run_id": run_id,
            "row": row,
            "status": status,
            "position": position,
            "view": view,
            "template": template,
            "why": _failure(run_id) if status == "failed" else None,
            "live": status in ("running", "queued"),
            "sources": _sources(row.options if row else {}),
        }

    @router.get("/runs/{run_id}", response_class=HTMLResponse, include_in_schema=False)
    async def run_page(run_id: str) -> str:
        context = await asyncio.to_thread(_run_context, run_id)
        return page("run.html", nav="runs", **context)

    def _report(run_id: str) -> Report:
        data = store.artifact(run_id, "report")
        if data is None:
            raise HTTPException(404, f"run {run_id} has no report (yet)")
        return Report.model_validate(data)

    def _download(body: bytes | str, media: str, name: str) -> Response:
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return Response(body, media_type=media, headers=headers)

    @router.get("/runs/{run_id}/report.md", include_in_schema=False)
    async def report_md(run_id: str) -> Response:
        report = await asyncio.to_thread(_report, run_id)
        return _download(render_markdown(report), "text/markdown; charset=utf-8", f"report-{run_id}.md")

    @router.get("/runs/{run_id}/report.json", include_in_schema=False)
    async def report_json(run_id: str) -> Response:
        report = await asyncio.to_thread(_report, run_id)
        body = report.model_dump_json(indent=2)
        return _download(body, "application/json", f"report-{run_id}.json")

    @router.get("/runs/{run_id}/report.html", include_in_schema=False)
    async def report_html(run_id: str) -> Response:
        report = await asyncio.to_thread(_report, run_id)
        body = page("standalone.html", view=build(report), css=_static("desk.css"))
        return _download(body, "text/html; charset=utf-8", f"report-{run_id}.html")

    @router.get("/runs/{run_id}/report.docx", include_in_schema=False)
    async def report_docx(run_id: str) -> Response:
        report = await asyncio.to_thread(_report, run_id)
        body = await asyncio.to_thread(export.docx_bytes, build(report))
        return _download(body, export.DOCX_TYPE, f"report-{run_id}.docx")

    @router.get(
        "/runs/{run_id}/evidence/{number}/passage", response_class=HTMLResponse, include_in_schema=False
    )
    async def passage(run_id: str, number: int) -> str:
        """The passage a corpus quote stands in (its chunk, the quote marked, and the chunks either side),
        as a fragment the evidence card shows."""

        def go() -> str:
            report = _report(run_id)
            if not 1 <= number <= len(report.evidence):
                raise HTTPException(404, f"run {run_id} has no evidence [{number}]")
            record = report.evidence[number - 1]
            if record.kind != "corpus" or not record.chunk_id:
                raise HTTPException(404, "web evidence: the passage is the page at its URL")
            hit = runtime.searcher.chunks([record.chunk_id]).get(record.chunk_id)
            if hit is None:
                raise HTTPException(404, "the chunk is no longer in the index (re-ingested or removed)")
            (whole,) = runtime.searcher.with_neighbours([hit], 1)
            html, marked = render_marked(hit.content, record.quote)
            parts = [_part(n) for n in whole.neighbours if _before(whole, n)]
            parts.append(
                {"html": html, "main": True, "section_path": hit.section_path, "page": hit.page_start}
            )
            parts += [_part(n) for n in whole.neighbours if not _before(whole, n)]
            return page("_passage.html", parts=parts, marked=marked)

        return await asyncio.to_thread(go)

    @router.get("/search", response_class=HTMLResponse, include_in_schema=False)
    async def search_page(
        q: str = Query("", max_length=2000),
        document: str = Query("", max_length=500),
        type: list[str] = Query([]),  # noqa: B008 - FastAPI's way of declaring a repeated parameter
        section: str = Query("", max_length=500),
        k: int = Query(10, ge=1, le=50),
    ) -> str:
        def go() -> dict[str, Any]:
            documents = sorted(
                d.document_id for d, _ in zip(runtime.index.documents(), range(2000), strict=False)
            )
            hits: list[SearchHit] = []
            problem = None
            if q.strip():
                filters = SearchFilters(
                    document_ids=[document] if document else [],
                    chunk_types=[t for t in type if t],
                    section_prefix=section or None,
                )
                found = runtime.searcher.check_filters(filters)
                if found is not None:
                    problem = found.message
                else:
                    hits = runtime.searcher.search(q, k=k, filters=filters)
                    if not hits:
                        problem = runtime.searcher.why_empty(filters)
            return {"documents": documents, "hits": hits, "problem": problem}

        found = await asyncio.to_thread(go)
        return page(
            "search.html", nav="search", q=q, document=document, types=type, section=section, k=k,
            all_types=SEARCHABLE_TYPES, **found,
        )  # fmt: skip

    @router.get("/upload", response_class=HTMLResponse, include_in_schema=False)
    async def upload_page() -> str:
        chunks = await asyncio.to_thread(runtime.index.chunk_count)
        suffixes = sorted(CONVERTIBLE_SUFFIXES)
        return page("upload.html", nav="upload", chunks=chunks, suffixes=suffixes,
                    max_mb=settings.api.max_body_mb)  # fmt: skip

    @router.get("/desk/static/{name}", include_in_schema=False)
    async def static(name: str) -> Response:
        if name not in _STATIC:
            raise HTTPException(404, f"no file {name}")
        return Response(_static(name), media_type=_STATIC[name], headers={"Cache-Control": "max-age=300"})

    @router.get("/v1/capabilities")
    async def capabilities_route() -> dict[str, Any]:
        """What a research run may use on this server: corpus, web, LLM, depth (and why not)."""
        return await asyncio.to_thread(capabilities, settings, runtime)

    @router.get("/v1/chunks/{chunk_id}")
    async def chunk_route(chunk_id: str, neighbours: int = Query(1, ge=0, le=3)) -> JSONResponse:
        """A corpus chunk with the chunks around it: the passage an evidence quote stands in."""

        def go() -> dict[str, Any] | None:
            hit = runtime.searcher.chunks([chunk_id]).get(chunk_id)
            if hit is None:
                return None
            (whole,) = runtime.searcher.with_neighbours([hit], neighbours) if neighbours else [hit]
            data = _chunk_json(whole)
            data["neighbours"] = [_chunk_json(n) for n in whole.neighbours]
            return data

        data = await asyncio.to_thread(go)
        if data is None:
            raise HTTPException(404, f"no chunk {chunk_id} in the index (re-ingested or removed since)")
        return JSONResponse(data)

    return router


def _chunk_json(hit: SearchHit) -> dict[str, Any]:
    keys = ("chunk_id", "document_id", "section_path", "content", "source", "page_start", "page_end",
            "chunk_type", "prev_chunk_id", "next_chunk_id", "document_title", "document_date")  # fmt: skip
    return {key: getattr(hit, key) for key in keys}


def _sources(options: dict[str, Any]) -> str:
    used = [name for name, key in (("corpus", "use_corpus"), ("web", "use_web")) if options.get(key)]
    return " + ".join(used) or "no sources"


def _part(hit: SearchHit) -> dict[str, Any]:
    return {
        "html": render(hit.content),
        "main": False,
        "section_path": hit.section_path,
        "page": hit.page_start,
    }


def _before(hit: SearchHit, neighbour: SearchHit) -> bool:
    return neighbour.chunk_id == hit.prev_chunk_id


def _matches(entry: dict[str, Any], q: str, status: str) -> bool:
    row: RunRow = entry["row"]
    if status and entry["status"] != status:
        return False
    text = f"{row.query} {row.template} {row.run_id}".lower()
    return all(word in text for word in q.lower().split())
