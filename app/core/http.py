"""The HTTP edge, as plain ASGI middleware: security headers on every response, a request id and one log line per
request, crashes turned into a bare 500 (logged with the request id, never a trace to the client), a cap on request
bodies enforced on the stream itself, JSON bodies with non-finite numbers refused, and a same-origin check for
state-changing requests (the session cookie is SameSite=Lax; this closes the rest of the cross-site door)."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import time
import uuid
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import metrics
from app.core import strict_json
from app.core.errors import BodyTooLarge, error_body
from app.core.logging import request_id_var

log = logging.getLogger("tablestakes.http")

_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


async def _send_json(send: Send, status: int, body: dict[str, Any],
                     headers: Iterable[tuple[bytes, bytes]] = ()) -> None:
    payload = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode()),
                            *headers]})
    await send({"type": "http.response.body", "body": payload})


# The client's page: its own files only. Scripts are the ES modules under /static plus the page's inline import map,
# allowed by its hash (an import map cannot be an external file); styles only from files (the client sets inline
# styles through the CSSOM, which CSP does not govern). connect-src 'self' covers the same-origin WebSocket too.
PAGE_POLICY = ("default-src 'self'; script-src {script_sources}; style-src 'self'; img-src 'self' data:; "
               "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
               "frame-ancestors 'none'")
# Anything else (JSON, scripts, styles, images), should it be opened as a document: nothing runs, nothing frames it.
RESOURCE_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'"

_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL | re.IGNORECASE)


def inline_script_hashes(page: Path) -> list[str]:
    """CSP hash sources ('sha256-...') of the inline scripts of an HTML file (none when it does not exist)."""
    if not page.is_file():
        return []
    return [f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'"
            for body in _INLINE_SCRIPT.findall(page.read_text(encoding="utf-8"))]


def page_policy(page: Path) -> str:
    return PAGE_POLICY.format(script_sources=" ".join(["'self'", *inline_script_hashes(page)]))


class SecurityHeadersMiddleware:
    """Outermost: every response, errors and the bare 500 included, says nosniff, may not be framed, sends no
    referrer and carries a Content-Security-Policy (the page's for HTML, a locked-down one for the rest). A header
    the response set itself is kept."""

    def __init__(self, app: ASGIApp, page_policy: str):
        self.app = app
        common = [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                  (b"referrer-policy", b"no-referrer"), (b"cross-origin-opener-policy", b"same-origin")]
        self.page_headers = [*common, (b"content-security-policy", page_policy.encode())]
        self.resource_headers = [*common, (b"content-security-policy", RESOURCE_POLICY.encode())]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {key.lower() for key, _ in headers}
                content_type = next((value for key, value in headers if key.lower() == b"content-type"), b"")
                extra = self.page_headers if content_type.startswith(b"text/html") else self.resource_headers
                message["headers"] = headers + [(key, value) for key, value in extra if key not in present]
            await send(message)

        await self.app(scope, receive, send_with_headers)


class RequestContextMiddleware:
    """Outermost: names the request (X-Request-ID in and out), logs it, and answers 500 if anything inside crashes."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            # A WebSocket lives for hours: it keeps no request context (its handler logs with the user instead).
            await self.app(scope, receive, send)
            return
        incoming = _header(scope, b"x-request-id")
        request_id = incoming if incoming and _REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex
        token = request_id_var.set(request_id)
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status: int | None = None

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            log.exception("unhandled error", extra={"request_id": request_id, "method": scope.get("method"),
                                                   "path": scope.get("path")})
            if scope["type"] == "http" and status is None:
                status = 500
                await _send_json(send, 500, error_body("internal_error", "Something went wrong on our side.",
                                                       {"request_id": request_id}),
                                 [(b"x-request-id", request_id.encode())])
            elif scope["type"] != "http":
                raise
        finally:
            if scope["type"] == "http":
                seconds = time.perf_counter() - started
                log.info("%s %s %s", scope.get("method"), scope.get("path"), status, extra={
                    "method": scope.get("method"), "path": scope.get("path"), "status": status,
                    "duration_ms": round(seconds * 1000, 2), "client": (scope.get("client") or (None,))[0]})
                metrics.http_request(scope.get("method"), metrics.route_template(scope), status, seconds)
            request_id_var.reset(token)


class BodyLimitMiddleware:
    """Refuses bodies over `limit` bytes: at once when Content-Length says so, else as soon as the stream passes it."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        if declared is not None:
            try:
                too_large = int(declared) > self.limit
            except ValueError:
                await _send_json(send, 400, error_body("bad_request", "Content-Length is not a number."))
                return
            if too_large:
                await _send_json(send, 413, error_body("body_too_large",
                                                       f"The request body is larger than {self.limit} bytes."))
                return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        await self.app(scope, limited_receive, send)


class FiniteJsonMiddleware:
    """Inside the body cap: a JSON body holding NaN, Infinity or a number past a double's range (1e400), nested past
    what the parser follows, or not UTF-8 text, is refused with 400 `malformed_json` before any endpoint sees it.
    Python's json module takes the first three, PostgreSQL's JSON columns do not, and a browser cannot parse them
    when they come back (issue 14)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_json(_header(scope, b"content-type")):
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        body = bytearray()
        try:
            while True:
                message = await receive()
                messages.append(message)
                if message["type"] != "http.request":
                    break
                body += message.get("body", b"")
                if not message.get("more_body", False):
                    break
        except BodyTooLarge as error:
            await _send_json(send, 413, error_body("body_too_large", error.detail))
            return
        try:
            strict_json.loads(bytes(body))
        except (strict_json.NonFiniteNumber, strict_json.NestedTooDeep, strict_json.NotText) as refused:
            # FastAPI's own parser would take the first and call the others a plain 400 `bad_request`
            await _send_json(send, 400, error_body("malformed_json", f"The request body is not valid JSON: {refused}"))
            return
        except ValueError:
            pass  # not JSON at all: the endpoint answers that, with the position where it broke

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


def _is_json(content_type: str | None) -> bool:
    if not content_type:
        return False
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


def origin_allowed(origin: str, host: str | None, allowed_origins: Iterable[str]) -> bool:
    """True if `origin` (an Origin header) is this site (same host[:port] as the Host header) or an allowed origin.
    The one origin rule, for HTTP (below) and WebSockets."""
    origin = origin.rstrip("/").lower()
    if origin in {allowed.rstrip("/").lower() for allowed in allowed_origins}:
        return True
    return bool(host) and urlsplit(origin).netloc == (host or "").lower()


class SameOriginMiddleware:
    """A state-changing request that names an Origin must come from this site or from ALLOWED_ORIGINS."""

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str]):
        self.app = app
        self.allowed = [origin.rstrip("/").lower() for origin in allowed_origins]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") in _UNSAFE_METHODS:
            origin = _header(scope, b"origin")
            if origin is not None and not origin_allowed(origin, _header(scope, b"host"), self.allowed):
                await _send_json(send, 403, error_body("origin_not_allowed",
                                                       "Requests from this origin are not accepted."))
                return
        await self.app(scope, receive, send)
