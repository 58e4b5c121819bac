"""/healthz (the process answers), /readyz (the database and Redis answer too) and /metrics (Prometheus, for whoever
holds METRICS_TOKEN: app/metrics.py)."""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy import text

from app import metrics
from app.core.errors import error_response
from app.core.openapi import errors
from app.deps import RuntimeDep

router = APIRouter(tags=["operations"])
log = logging.getLogger("tablestakes.ops")

CHECK_TIMEOUT = 2.0


class HealthOut(BaseModel):
    status: str = Field(examples=["ok"])


class ReadyOut(BaseModel):
    status: str = Field(examples=["ready"])
    database: str
    redis: str
    node: str | None = Field(default=None, description="this node's incarnation")
    tables: int | None = Field(default=None, description="tables this node plays")
    failed_tables: list[str] | None = Field(default=None, description="tables it could neither save nor cancel yet")
    fenced_writes: int | None = Field(default=None, description="writes refused: another node had adopted the table")
    sockets: int | None = None
    relayed_in: int | None = None
    relayed_out: int | None = None


@router.get("/healthz", response_model=HealthOut)
async def healthz() -> HealthOut:
    return HealthOut(status="ok")


def _tables(request: Request) -> dict[str, object]:
    """This node's tables: how many it plays, the ones it could neither save nor cancel yet (it keeps trying),
    and how many writes were refused because another node had adopted the table."""
    realtime = getattr(request.app.state, "realtime", None)
    if realtime is None:
        return {}
    manager = realtime.tables
    cluster = realtime.cluster
    return {"node": manager.node_id, "tables": manager.owned(), "failed_tables": manager.failed(),
            "fenced_writes": manager.store.fenced_writes, "sockets": len(realtime.hub.connections()),
            "relayed_in": cluster.relayed_in if cluster else 0, "relayed_out": cluster.relayed_out if cluster else 0}


@router.get("/readyz", response_model=ReadyOut, responses=errors((503, "not_ready"), (503, "draining")))
async def readyz(request: Request, runtime: RuntimeDep) -> JSONResponse:
    async def database() -> None:
        async with runtime.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    async def redis() -> None:
        await runtime.redis.ping()

    checks = {"database": database, "redis": redis}
    results: dict[str, str] = {}
    for name, check in checks.items():
        try:
            await asyncio.wait_for(check(), CHECK_TIMEOUT)
            results[name] = "ok"
        except Exception as error:  # any failure means not ready; the reason goes to the log
            log.warning("readiness check failed", extra={"check": name, "error": repr(error)})
            results[name] = "unavailable"
    node = _tables(request)
    realtime = getattr(request.app.state, "realtime", None)
    if realtime is not None and realtime.draining:
        # Leaving the cluster: the balancer must stop sending sockets here (docs/cluster.md, "Drain").
        return error_response(503, "draining", "This server is leaving; its tables moved to another one.", results)
    if all(value == "ok" for value in results.values()):
        return JSONResponse({"status": "ready", **results, **node})
    return error_response(503, "not_ready", "A backing service does not answer.", results)


@router.get("/metrics", include_in_schema=False)
async def prometheus_metrics(request: Request) -> Response:
    """The Prometheus text format, for a scraper sending `Authorization: Bearer <METRICS_TOKEN>`. Without the
    setting the route is as absent as any unknown path (404): not public by default; with it, a request without
    the token is refused (401)."""
    configured = request.app.state.settings.metrics_token
    token = configured.get_secret_value() if configured is not None else ""
    if not token:
        return error_response(404, "not_found", "There is nothing at this address.")
    if not metrics.allowed(token, request.headers.get("authorization")):
        return error_response(401, "not_authenticated", "Send the metrics token: Authorization: Bearer <token>.",
                              headers={"WWW-Authenticate": "Bearer"})
    return Response(metrics.render(await metrics.node_families(request.app)),
                    media_type=metrics.CONTENT_TYPE_LATEST)
