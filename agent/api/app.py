"""The FastAPI application: routes, API-key check, limits, CORS, and errors without stack traces.

Routes are the contract's: ``POST /v1/research/stream`` (SSE), ``POST /v1/research`` (background),
``GET /v1/research/{run_id}``, ``GET /v1/research/{run_id}/events`` (replay, ``Last-Event-ID``),
``GET /v1/templates``, ``GET /v1/search``, ``POST /v1/ingest``, ``GET /healthz``; the research desk (pages at
``/``, ``/runs/{run_id}`` and more, ``GET /v1/capabilities``, ``GET /v1/chunks/{id}``) is ``desk/``'s router.
With an API key set every route but ``/healthz`` needs ``X-API-Key``; a browser passes the key once as
``?token=KEY`` on a page URL and a cookie carries it afterwards (as Jupyter does).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from pydantic import BaseModel, Field, ValidationError
from starlette.datastructures import UploadFile as StarletteUpload

from sleuth.agent import (
    QUERY_PATTERN,
    ResearchOptions,
    RunNotFoundError,
    Runtime,
    TemplateError,
    Wiring,
    usable_query,
)
from sleuth.agent.api.desk import desk_router
from sleuth.agent.api.limits import BodyLimit
from sleuth.agent.api.origins import cross_origin_refusal
from sleuth.agent.api.runs import RunManager, event_frame
from sleuth.agent.api.uploads import UploadFolder, UploadNameError, upload_name
from sleuth.ingest import (
    CONVERTIBLE_SUFFIXES,
    ChunkType,
    ConfigurationError,
    InputError,
    SleuthError,
    UnavailableError,
    iter_sources,
)
from sleuth.retrieval import SearchFilters

log = logging.getLogger(__name__)
COOKIE = "sleuth_token"


#: What a usable query is, told in the schema; the check itself (``usable_query``) answers 400 with a reason.
_QUERY_SCHEMA: dict[str, Any] = {"pattern": QUERY_PATTERN}


class ResearchRequest(BaseModel):
    query: str = Field(min_length=1, max_length=2000, json_schema_extra=_QUERY_SCHEMA)
    template: str = Field(min_length=1, max_length=100)
    web: bool | None = None
    corpus: bool = True
    depth: int | None = Field(None, ge=0, le=6)
    llm: bool | None = None


class ErrorBody(BaseModel):
    error: str


#: Every route may answer with one of these, always as ``{"error": "..."}`` (one line, no stack trace).
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text}
    for code, text in (
        (400, "Bad request"),
        (401, "Missing or wrong API key"),
        (403, "Path outside the ingest root, or a write from another origin"),
        (404, "Not found"),
        (413, "Request body too large"),
        (500, "Internal error"),
    )
}
_SSE: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/event-stream": {}}, "description": "Server-Sent Events, one per run event"}
}


class IngestPaths(BaseModel):
    paths: list[Annotated[str, Field(min_length=1, max_length=4096)]] = Field(min_length=1, max_length=1000)


def create_app(wiring: Wiring, runtime: Runtime) -> FastAPI:
    settings = wiring.settings
    api = settings.api
    store = wiring.run_store()
    templates = wiring.templates()
    root = api.root.expanduser().resolve()
    uploads = UploadFolder(settings.research.runs_dir.expanduser().resolve().parent / "uploads")
    ingest_lock = asyncio.Lock()
    state: dict[str, RunManager] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        state["runs"] = RunManager(wiring, runtime, store, wiring.run_folders(), api.max_runs)
        yield
        await state["runs"].close()
        store.close()

    app = FastAPI(
        title="sleuth",
        version="0.1.0",
        description="Deep research over your documents and the web, every claim anchored to evidence.",
        lifespan=lifespan,
        responses=_ERRORS,
    )
    if api.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=api.cors_origins,
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["X-API-Key", "Content-Type", "Last-Event-ID"],
        )

    @app.middleware("http")
    async def guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        refusal = cross_origin_refusal(request.method, request.headers, request.url.scheme, api.cors_origins)
        if refusal is not None:
            return JSONResponse({"error": refusal}, status_code=403)
        key = api.key
        # A CORS preflight never carries the key (browsers send none): the CORS middleware answers it.
        preflight = request.method == "OPTIONS" and "access-control-request-method" in request.headers
        if key and request.url.path != "/healthz" and not preflight:
            token = request.query_params.get("token")
            if token is not None and request.method == "GET" and _same(token, key):
                # A browser's first visit: remember the key in a cookie, drop it from the address.
                target = request.url.remove_query_params("token")
                response: Response = RedirectResponse(str(target), status_code=303)
                response.set_cookie(COOKIE, key, httponly=True, samesite="strict")
                return response
            given = request.headers.get("x-api-key") or request.cookies.get(COOKIE) or ""
            if not _same(given, key):
                return JSONResponse({"error": "missing or wrong API key (header X-API-Key)"}, status_code=401)
        try:
            return await call_next(request)
        except Exception:
            log.exception("request %s %s failed", request.method, request.url.path)
            return JSONResponse({"error": "internal error (see the server's log)"}, status_code=500)

    # Outermost: the body limit holds whatever runs inside (the guard above included).
    app.add_middleware(BodyLimit, max_bytes=api.max_body_mb * 1_000_000, label=f"{api.max_body_mb} MB")

    def runs() -> RunManager:
        return state["runs"]

    def _options(body: ResearchRequest) -> ResearchOptions:
        web_ok = settings.web.configured
        if body.web and not web_ok:
            raise HTTPException(400, "web search needs SLEUTH_SEARXNG_URL on the server")
        if not body.corpus and not (body.web if body.web is not None else web_ok):
            raise HTTPException(400, "corpus: false leaves nothing to search without web")
        llm_ok = settings.llm.configured
        if body.llm and not llm_ok:
            raise HTTPException(400, "llm: true needs SLEUTH_LLM_BASE_URL and SLEUTH_LLM_MODEL on the server")
        return wiring.research_options(
            depth=body.depth,
            corpus=body.corpus,
            web=web_ok if body.web is None else body.web,
            llm=llm_ok if body.llm is None else body.llm,
        )

    def _start(body: ResearchRequest) -> str:
        template = templates.load(body.template)
        return runs().start(body.query, template, _options(body))

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        """FastAPI's 422 without the ``input`` it echoes by default (a large body came back whole): where and
        why, as one ``error`` line and the usual ``detail`` list."""
        detail = [{k: e[k] for k in ("loc", "msg", "type") if k in e} for e in exc.errors()]
        first = detail[0] if detail else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()))
        line = f"{where}: {first['msg']}" if where else str(first["msg"])
        return JSONResponse({"error": line[:500], "detail": jsonable_encoder(detail)}, status_code=422)

    @app.exception_handler(SleuthError)
    async def sleuth_error(_: Request, exc: SleuthError) -> JSONResponse:
        """The exception tree mapped once: the client's input 400 (a name that names nothing 404), the
        server's configuration 500, a service it needs 503; always one line."""
        return JSONResponse({"error": str(exc)}, status_code=status_of(exc))

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"status": "ok", "chunks": runtime.index.chunk_count()}

    @app.post("/v1/research/stream", response_class=StreamingResponse, responses=_SSE)
    async def research_stream(body: ResearchRequest) -> StreamingResponse:
        run_id = _start(body)

        async def frames() -> AsyncIterator[str]:
            async for event in runs().events(run_id):
                yield event_frame(event)

        return StreamingResponse(frames(), media_type="text/event-stream", headers=_NO_CACHE)

    @app.post("/v1/research", status_code=202)
    async def research_start(body: ResearchRequest) -> dict[str, Any]:
        run_id = _start(body)
        position = runs().position(run_id)
        return {"run_id": run_id, "status": "queued" if position else "running", "queue_position": position}

    @app.get("/v1/research")
    async def research_list(limit: int = Query(50, ge=1, le=500)) -> list[dict[str, Any]]:
        return [_row(r) for r in await asyncio.to_thread(store.list, limit)]

    @app.get("/v1/research/{run_id}")
    async def research_get(run_id: str) -> dict[str, Any]:
        position = runs().position(run_id)
        if position is not None:
            return {"run_id": run_id, "status": "queued", "queue_position": position}
        try:
            row = await asyncio.to_thread(store.get, run_id)
        except RunNotFoundError:
            if runs().is_live(run_id):
                return {"run_id": run_id, "status": "running"}
            raise HTTPException(404, f"no run {run_id}") from None
        report = await asyncio.to_thread(store.artifact, run_id, "report")
        return {**_row(row), "report": report}

    @app.get("/v1/research/{run_id}/events", response_class=StreamingResponse, responses=_SSE)
    async def research_events(
        run_id: str,
        last_event_id: str | None = Header(None),
        after: int = Query(0, ge=0, le=_MAX_SEQ),
    ) -> StreamingResponse:
        known = runs().is_live(run_id) or runs().position(run_id) is not None
        if not known:
            try:
                await asyncio.to_thread(store.get, run_id)
            except RunNotFoundError:
                raise HTTPException(404, f"no run {run_id}") from None
        start = after if last_event_id is None else _event_id(last_event_id)

        async def frames() -> AsyncIterator[str]:
            async for event in runs().events(run_id, start):
                yield event_frame(event)

        return StreamingResponse(frames(), media_type="text/event-stream", headers=_NO_CACHE)

    @app.get("/v1/templates")
    async def templates_list() -> list[dict[str, Any]]:
        out = []
        for name in templates.names():
            try:
                t = templates.load(name)
            except TemplateError as exc:
                out.append({"name": name, "error": str(exc)})
                continue
            out.append(t.model_dump(mode="json"))
        return out

    @app.get("/v1/search")
    async def search(
        q: Annotated[str, Query(min_length=1, max_length=2000, json_schema_extra=_QUERY_SCHEMA)],
        k: Annotated[int, Query(ge=1, le=100)] = 10,
        mode: Literal["hybrid", "dense", "sparse"] = "hybrid",
        type: Annotated[list[ChunkType] | None, Query()] = None,
    ) -> list[dict[str, Any]]:
        q = usable_query(q)
        filters = SearchFilters(chunk_types=list(type or ()))
        problem = runtime.searcher.check_filters(filters)
        if problem is not None:
            raise HTTPException(400, f"{problem.option}: {problem.message}")
        hits = await asyncio.to_thread(runtime.searcher.search, q, k=k, mode=mode, filters=filters)
        keys = ("chunk_id", "document_id", "score", "section_path", "content", "source", "page_start")
        return [{key: getattr(h, key) for key in keys} | {"chunk_type": h.chunk_type} for h in hits]

    @app.post(
        "/v1/ingest",
        responses={422: {"model": ErrorBody, "description": "Malformed body"}},
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {"schema": IngestPaths.model_json_schema()},
                    "multipart/form-data": {
                        "schema": {
                            "type": "object",
                            "properties": {
                                "files": {
                                    "type": "array",
                                    "items": {"type": "string", "format": "binary"},
                                    "minItems": 1,
                                }
                            },
                            "required": ["files"],
                        }
                    },
                },
            }
        },
    )
    async def ingest(request: Request) -> dict[str, Any]:
        kind = request.headers.get("content-type", "")
        if kind.startswith("multipart/form-data"):
            return await _ingest_uploads(request)
        try:
            body = IngestPaths.model_validate_json(await request.body())
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "body"
            raise HTTPException(422, f'body must be {{"paths": [...]}} ({where}: {first["msg"]})') from exc
        paths = [_confined(root, p) for p in body.paths]
        async with ingest_lock:
            return await asyncio.to_thread(_ingest, wiring, runtime, paths, root)

    async def _ingest_uploads(request: Request) -> dict[str, Any]:
        """Each usable upload kept in the managed folder and ingested; each unusable one an error line (the
        rest go on), a 400 when none is usable."""
        async with request.form(max_files=1000) as form:  # the spooled parts are deleted on the way out
            given = form.getlist("files")
            if not given:
                raise HTTPException(400, "no files in the upload (form field 'files')")
            errors: list[str] = []
            chosen: dict[str, StarletteUpload] = {}
            for upload in given:
                try:
                    # A part without a file name reaches here as text, not as a file.
                    name = upload_name(upload.filename if isinstance(upload, StarletteUpload) else None)
                except UploadNameError as exc:
                    errors.append(str(exc))
                    continue
                if name in chosen:
                    errors.append(f"{name}: a second file of this name in one upload; only the first is kept")
                    continue
                assert isinstance(upload, StarletteUpload)
                chosen[name] = upload
            if not chosen:
                raise HTTPException(400, "; ".join(errors))
            async with ingest_lock:
                kept = await asyncio.to_thread(
                    lambda: [uploads.keep(name, upload.file) for name, upload in chosen.items()]
                )
                report = await asyncio.to_thread(_ingest, wiring, runtime, kept, uploads.path)
        report["errors"] = errors + report["errors"]
        report["failed"] += len(errors)
        return report

    @app.delete("/v1/documents/{document_id:path}")
    async def remove_document(document_id: str) -> dict[str, Any]:
        """Remove a document (every source recorded under this id, all their chunks); an uploaded file goes
        with it."""
        async with ingest_lock:
            return await asyncio.to_thread(_remove, wiring, runtime, uploads, document_id)

    app.include_router(
        desk_router(wiring, runtime, store, templates, runs, lambda body: _start(ResearchRequest(**body)))
    )
    return app


_NO_CACHE = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


#: The largest event sequence number a client may name (SQLite's integers are 64-bit).
_MAX_SEQ = 10**15


def _event_id(value: str) -> int:
    """A ``Last-Event-ID`` as the sequence number it must be (the ids the server sends), else a 400: an empty
    one (EventSource's reset) replays from the start."""
    value = value.strip()
    if not value:
        return 0
    if not (value.isascii() and value.isdigit() and len(value) <= 16) or int(value) > _MAX_SEQ:
        raise HTTPException(400, f"Last-Event-ID must be an event number, 0 to {_MAX_SEQ} ({value[:40]!r})")
    return int(value)


def _same(given: str, key: str) -> bool:
    return hmac.compare_digest(given.encode(), key.encode())


def _row(row: Any) -> dict[str, Any]:
    return {
        "run_id": row.run_id,
        "query": row.query,
        "template": row.template,
        "status": row.status,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
        "summary": row.summary,
        "error": row.error,
    }


def status_of(exc: SleuthError) -> int:
    if isinstance(exc, RunNotFoundError):
        return 404
    if isinstance(exc, InputError):
        return 400
    if isinstance(exc, UnavailableError):
        return 503
    assert isinstance(exc, ConfigurationError) or type(exc) is SleuthError, exc
    return 500


def _confined(root: Path, raw: str) -> Path:
    """A server-side path under ``root`` (relative to it, or absolute inside it), symlinks resolved, or a 403
    naming it."""
    given = Path(raw)
    if ".." in given.parts:
        raise HTTPException(403, f"{raw!r}: '..' is not allowed in ingest paths")
    try:
        resolved = (given if given.is_absolute() else root / given).resolve()
        exists = resolved.exists()
    except (ValueError, OSError) as exc:  # NUL bytes, names too long, unreadable links
        raise HTTPException(400, f"{raw!r}: not a usable path ({exc})") from None
    if not resolved.is_relative_to(root):
        raise HTTPException(403, f"{raw!r}: outside the server's ingest root")
    if not exists:
        raise HTTPException(404, f"{raw!r}: no such file or folder under the ingest root")
    return resolved


def _remove(wiring: Wiring, runtime: Runtime, uploads: UploadFolder, document_id: str) -> dict[str, Any]:
    sources = [Path(r.key) for r in runtime.index.documents_by_id(document_id)]
    if not sources:
        raise HTTPException(404, f"no document {document_id!r} in the corpus")
    wiring.ingestor(runtime).remove_documents([document_id])
    for path in sources:
        uploads.discard(path)
    return {"document_id": document_id, "removed": len(sources), "index_chunks": runtime.index.chunk_count()}


def _ingest(wiring: Wiring, runtime: Runtime, paths: list[Path], allowed: Path) -> dict[str, Any]:
    """Ingest as ``sleuth ingest`` does, with every conversion setting of the server (limits, PDF path,
    timeout, workers, cache)."""
    errors: list[str] = []
    sources = []
    for source in iter_sources(paths, CONVERTIBLE_SUFFIXES):
        path = getattr(source, "path", None)
        if isinstance(path, Path) and not path.resolve().is_relative_to(allowed):
            errors.append(f"{path}: a link out of the ingest root; skipped")
            continue
        sources.append(source)
    convert = wiring.settings.convert
    ingestor = wiring.ingestor(runtime, on_error=errors.append)
    ingestor.ingest_sources(
        sources, convert.options(), workers=convert.workers, timeout=convert.timeout, cache=convert.cache()
    )
    r = ingestor.report
    return {
        "added": r.added,
        "updated": r.updated,
        "unchanged": r.unchanged,
        "failed": r.failed,
        "skipped_pages": r.skipped_pages,
        "skipped": r.skipped,
        "chunks_written": r.chunks_written,
        "errors": errors,
        "index_chunks": runtime.index.chunk_count(),
        "upload_id": uuid.uuid4().hex[:8],
    }
