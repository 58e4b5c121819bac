"""The application: `create_app(settings)` builds a FastAPI app whose lifespan opens the runtime (database engine,
Redis client, services) and keeps it on `app.state.runtime`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.cors import CORSMiddleware

from app.accounts.endpoints import router as accounts_router
from app.config import Settings
from app.deps import get_current_user, get_current_user_briefly, get_full_account, get_full_account_briefly
from app.core.clock import Clock
from app.core.errors import install_error_handlers
from app.core.openapi import install_openapi
from app.core.http import (BodyLimitMiddleware, FiniteJsonMiddleware, RequestContextMiddleware,
                           SameOriginMiddleware, SecurityHeadersMiddleware, page_policy)
from app.friends.endpoints import router as friends_router
from app.ledger.endpoints import router as ledger_router
from app.online.endpoints import router as online_router
from app.ops import router as ops_router
from app.ratings.endpoints import router as ratings_router
from app.realtime.gateway import websocket_endpoint
from app.realtime.setup import open_realtime
from app.rooms.endpoints import router as rooms_router
from app.runtime import open_runtime
from app.tables.endpoints import router as tables_router


def create_app(settings: Settings | None = None, *, clock: Clock | None = None, migrate: bool = False) -> FastAPI:
    """A new app. `migrate=True` upgrades the database at startup (the CLI migrates before serving instead)."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with open_runtime(settings, clock, migrate=migrate) as runtime:
            app.state.runtime = runtime
            async with open_realtime(app, runtime):
                yield

    app = FastAPI(title="Tablestakes", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    install_error_handlers(app)

    # Middleware: the last added is the outermost.
    app.add_middleware(FiniteJsonMiddleware)
    app.add_middleware(SameOriginMiddleware, allowed_origins=settings.allowed_origins)
    if settings.allowed_origins:
        app.add_middleware(CORSMiddleware, allow_origins=settings.allowed_origins, allow_credentials=True,
                           allow_methods=["GET", "POST", "PUT", "DELETE"], allow_headers=["Content-Type"])
    app.add_middleware(BodyLimitMiddleware, limit=settings.max_body_bytes)
    app.add_middleware(RequestContextMiddleware)
    app.add_middleware(SecurityHeadersMiddleware, page_policy=page_policy(settings.static_dir / "index.html"))

    app.include_router(ops_router)
    app.include_router(accounts_router)
    app.include_router(ledger_router)
    app.include_router(friends_router)
    app.include_router(ratings_router)
    app.include_router(tables_router)  # tables and past games
    app.include_router(rooms_router)  # friends rooms and invitations
    app.include_router(online_router)  # matchmaking, shop, league
    app.add_api_websocket_route("/ws", websocket_endpoint)  # the tables' socket (app/realtime/gateway.py)

    _mount_client(app, settings)
    install_openapi(app, session_dependencies=[get_current_user, get_current_user_briefly],
                    full_account_dependencies=[get_full_account, get_full_account_briefly])
    return app


# The client's files keep their names from one release to the next (no build step, no hashed names): browsers may
# keep them but must ask again each time, so a new release shows at once and an unchanged file costs a 304.
CLIENT_CACHE_CONTROL = "no-cache"


class ClientFiles(StaticFiles):
    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = CLIENT_CACHE_CONTROL
        return response


def _mount_client(app: FastAPI, settings: Settings) -> None:
    """The browser client: files under /static, and static/index.html at / when it exists."""
    static_dir = settings.static_dir
    if static_dir.is_dir():
        app.mount("/static", ClientFiles(directory=static_dir), name="static")

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> Response:
        page = static_dir / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html", headers={"Cache-Control": CLIENT_CACHE_CONTROL})
        return JSONResponse({"service": "tablestakes", "status": "ok", "api": "/api", "docs": "/docs"})
