"""The FastAPI application: ``create_app(config)`` gives an ASGI app over one Service.

Errors are JSON ``{"error": code, "message": text}``: 400 bad input, 401 no or wrong key,
403 another user's items, 404 unknown, 413 too big, 429 too many, 503 not ready.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response

from omnireader._version import __version__
from omnireader.errors import (
    ConfigError,
    FineModeUnavailableError,
    InvalidInputError,
    ItemNotFoundError,
    OmniReaderError,
)
from omnireader.server.auth import Caller
from omnireader.server.config import ServerConfig
from omnireader.server.limits import BodyLimit
from omnireader.server.schemas import (
    DeleteResponse,
    FilterFields,
    ReadRequest,
    ReadResponse,
    SearchRequest,
    SearchResponse,
    search_response_json,
)
from omnireader.server.service import ForbiddenError, Service

__all__ = ["create_app"]


class HTTPProblem(Exception):
    def __init__(
        self, status: int, error: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.error, self.message, self.headers = status, error, message, headers


def create_app(config: ServerConfig, llm: Any = None) -> FastAPI:
    holder: dict[str, Service] = {}
    mcp = _mcp_endpoint(lambda: holder["service"], config.host)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        from contextlib import AsyncExitStack

        service = await run_in_threadpool(Service, config, llm)
        holder["service"] = service
        app.state.service = service
        await run_in_threadpool(service.jobs.recover)
        await run_in_threadpool(service.webhooks.recover)
        async with AsyncExitStack() as stack:
            if mcp is not None:
                await stack.enter_async_context(mcp.running())
            yield
        await run_in_threadpool(service.close)

    app = FastAPI(
        title="omnireader",
        version=__version__,
        lifespan=lifespan,
        description="Read anything into memory items, store them, search them.",
    )
    app.add_middleware(
        BodyLimit,
        max_bytes=config.limits.max_request_bytes,
        upload_bytes=(
            config.limits.max_upload_bytes * config.limits.max_files_per_request
            + config.limits.max_request_bytes
        ),
        upload_paths=("/v1/ingest",),
    )

    def service() -> Service:
        if "service" not in holder:
            raise HTTPProblem(503, "not_ready", "the store is still opening")
        return holder["service"]

    def caller(request: Request) -> Caller:
        svc = service()
        user, presented = None, None
        if svc.keys.enabled:
            presented = request.headers.get("x-api-key")
            auth = request.headers.get("authorization", "")
            if not presented and auth.lower().startswith("bearer "):
                presented = auth[7:].strip()
            user = svc.keys.user_for(presented)
            if user is None or presented is None:
                raise HTTPProblem(
                    401,
                    "unauthorized",
                    "send a valid API key as 'Authorization: Bearer KEY' or 'X-API-Key: KEY'",
                    {"WWW-Authenticate": "Bearer"},
                )
        bucket = (
            f"user:{user}" if user else f"client:{request.client.host if request.client else '?'}"
        )
        ok, wait = svc.limiter.allow(bucket)
        if not ok:
            raise HTTPProblem(
                429,
                "rate_limited",
                f"more than {svc.limiter.per_minute} requests a minute: retry in {wait:.0f} s",
                {"Retry-After": str(max(1, round(wait)))},
            )
        from omnireader.server.auth import key_id

        return Caller(
            user_id=user, bucket=bucket, key_id=key_id(presented) if user and presented else None
        )

    app.state.caller = caller
    app.state.service_dep = service
    _errors(app)

    @app.get("/", include_in_schema=False)
    def index() -> Any:
        """The web page: drop files, watch the job, search, open an item."""
        from pathlib import Path

        from fastapi.responses import HTMLResponse

        page = Path(__file__).with_name("static") / "index.html"
        return HTMLResponse(page.read_text(encoding="utf-8"))

    @app.get("/healthz", tags=["service"])
    def healthz() -> dict[str, str]:
        """The process is up (no store access)."""
        return {"status": "ok", "version": __version__}

    @app.get("/readyz", tags=["service"])
    def readyz() -> JSONResponse:
        """The store is open and answers."""
        svc = holder.get("service")
        if svc is None:
            return JSONResponse({"status": "starting"}, status_code=503)
        try:
            svc.store.table.count_rows()
        except Exception as e:  # the store went away under us
            return JSONResponse({"status": "store_unavailable", "message": str(e)}, 503)
        return JSONResponse({"status": "ready", "jobs_active": svc.jobs.active()})

    @app.post("/v1/read", response_model=ReadResponse, tags=["read"])
    def read(body: ReadRequest, who: Caller = Depends(caller)) -> Any:
        """Read inputs into items (nothing is stored). Local paths are never read."""
        got = service().read(who.user_id, body.inputs, body.mode, body.info)
        return {
            "items": [i.model_dump(mode="json") for i in got.items],
            "failures": [f.model_dump(mode="json") for f in got.failures],
            "fine_items": got.fine_items,
            "refine_failed": got.refine_failed,
            "refine_reasons": got.refine_reasons,
        }

    @app.post("/v1/search", response_model=SearchResponse, tags=["store"])
    def search(body: SearchRequest, who: Caller = Depends(caller)) -> Any:
        """The k best passages for the query, in the caller's own items only."""
        results = service().search(
            who.user_id,
            body.query,
            body.view,
            body.k,
            body.max_chars,
            body.filters,
            include_archived=body.include_archived,
        )
        return Response(search_response_json(results), media_type="application/json")

    @app.get("/v1/items/{item_id}", tags=["store"])
    def get_item(item_id: str, who: Caller = Depends(caller)) -> Any:
        """One item with its provenance (404 when missing or another user's)."""
        item = service().item(who.user_id, item_id)
        if item is None:
            raise HTTPProblem(404, "not_found", f"no item {item_id!r}")
        return item.model_dump(mode="json")

    @app.get("/v1/stats", tags=["store"])
    def stats(who: Caller = Depends(caller)) -> Any:
        """Item counts (the caller's own, when the server has keys)."""
        return service().stats(who.user_id)

    @app.get("/v1/files", tags=["store"])
    def files(who: Caller = Depends(caller), limit: int = Query(1000, ge=1, le=10000)) -> Any:
        """The stored files (the caller's own, when the server has keys): path, items,
        pages and last ingest time, most recent first. Delete one with
        ``DELETE /v1/items?path=PATH``."""
        return service().files(who.user_id, limit).model_dump(mode="json")

    @app.delete("/v1/items", response_model=DeleteResponse, tags=["store"])
    def delete_items(
        who: Caller = Depends(caller),
        user_id: str | None = None,
        session_id: str | None = None,
        memory_type: str | None = None,
        mode: str | None = None,
        since: str | None = None,
        until: str | None = None,
        persons: list[str] = Query(default_factory=list),
        entities: list[str] = Query(default_factory=list),
        path: str | None = None,
        page: int | None = None,
        source_kind: str | None = None,
        dry_run: bool = False,
    ) -> Any:
        """Delete the caller's items matching the filters (at least one is needed)."""
        try:
            filters = FilterFields(
                user_id=user_id,
                session_id=session_id,
                memory_type=memory_type,
                mode=mode,
                since=since,
                until=until,
                persons=persons,
                entities=entities,
                path=path,
                page=page,
                source_kind=source_kind,
            )
        except ValueError as e:
            raise InvalidInputError(f"invalid filters: {e}") from None
        result = service().delete(who.user_id, filters, dry_run)
        return {"deleted": result.deleted, "updated": result.updated, "dry_run": dry_run}

    from omnireader.server.routes_jobs import add_job_routes
    from omnireader.server.routes_versions import add_version_routes

    add_job_routes(app, service, caller, HTTPProblem)
    add_version_routes(app, service, caller, HTTPProblem)
    if mcp is not None:
        from omnireader.server.mcp_http import PATH

        # A plain route (not a mount): /mcp answers without a redirect to /mcp/.
        app.router.add_route(PATH, mcp, methods=["GET", "POST", "DELETE"], include_in_schema=False)
    return app


def _mcp_endpoint(service: Any, host: str) -> Any:
    """The MCP endpoint when the ``mcp`` package is installed (it is part of the extra)."""
    from omnireader.server import _importable

    if not _importable("mcp"):
        return None
    from omnireader.server.mcp_http import McpEndpoint

    return McpEndpoint(service, host)


def _errors(app: FastAPI) -> None:
    def body(
        status: int, error: str, message: str, headers: dict[str, str] | None = None
    ) -> JSONResponse:
        return JSONResponse(
            {"error": error, "message": message}, status_code=status, headers=headers
        )

    @app.exception_handler(HTTPProblem)
    async def _problem(_: Request, e: HTTPProblem) -> JSONResponse:
        return body(e.status, e.error, e.message, e.headers)

    @app.exception_handler(ForbiddenError)
    async def _forbidden(_: Request, e: ForbiddenError) -> JSONResponse:
        return body(403, "forbidden", str(e))

    @app.exception_handler(OmniReaderError)
    async def _omni(_: Request, e: OmniReaderError) -> JSONResponse:
        bad = isinstance(e, (InvalidInputError, ConfigError, FineModeUnavailableError))
        code = getattr(e, "code", None) or type(e).__name__
        status = 404 if isinstance(e, ItemNotFoundError) else 400 if bad else 500
        return body(status, code, " ".join(str(e).split()))
