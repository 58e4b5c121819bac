"""One error shape for everything: `{"error": {"code": "...", "message": "...", "details": ...}}`.

Domain code raises `AppError` (or a subclass) with a stable snake_case code and a sentence a person can read; the
handlers here turn it, validation errors, unknown routes, wrong methods (405 with every allowed method in `Allow`)
and malformed JSON into that shape. Crashes become a bare 500 in the request middleware (app/core/http.py), logged
with the request id. app/core/openapi.py documents the shape for every route in /openapi.json.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import iter_route_contexts
from starlette.routing import Match
from starlette.exceptions import HTTPException as StarletteHTTPException


class AppError(Exception):
    """An error a client can act on. Subclasses fix `status` and `code`; the message may be per-instance."""

    status: int = 400
    code: str = "bad_request"
    message: str = "The request could not be done."

    def __init__(self, message: str | None = None, *, code: str | None = None, status: int | None = None,
                 details: Any = None, headers: dict[str, str] | None = None):
        self.message = message or type(self).message
        self.code = code or type(self).code
        self.status = status or type(self).status
        self.details = details
        self.headers = headers
        super().__init__(f"{self.code}: {self.message}")


class NotFound(AppError):
    status = 404
    code = "not_found"
    message = "Nothing here."


class Conflict(AppError):
    status = 409
    code = "conflict"
    message = "That conflicts with the current state."


class Unauthorized(AppError):
    status = 401
    code = "not_authenticated"
    message = "Log in first."


class Forbidden(AppError):
    status = 403
    code = "forbidden"
    message = "You may not do that."


class TooManyRequests(AppError):
    """429 with `Retry-After`; the message ends with how long to wait, since a person reads it and not the header."""

    status = 429
    code = "rate_limited"
    message = "Too many attempts."

    def __init__(self, retry_after: int, message: str | None = None):
        retry_after = max(1, int(retry_after))
        said = f"{message or self.message} Try again in {wait_in_words(retry_after)}."
        super().__init__(said, details={"retry_after": retry_after}, headers={"Retry-After": str(retry_after)})


def wait_in_words(seconds: int) -> str:
    """`42 seconds`, `1 minute`, `17 minutes`, `2 hours`: rounded up, so the wait is never shorter than said."""
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = -(-seconds // 60)
    if minutes < 120:
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    hours = -(-minutes // 60)
    return f"{hours} hours"


class BodyTooLarge(StarletteHTTPException):
    """Raised from the body stream; an HTTPException so FastAPI's body parsing passes it through untouched."""

    def __init__(self, limit: int):
        super().__init__(status_code=413, detail=f"The request body is larger than {limit} bytes.")
        self.limit = limit


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        error["details"] = details
    return {"error": error}


def error_response(status: int, code: str, message: str, details: Any = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(error_body(code, message, details), status_code=status, headers=headers)


_HTTP_CODES = {
    400: ("bad_request", "The request is not valid."),
    401: ("not_authenticated", "Log in first."),
    403: ("forbidden", "You may not do that."),
    404: ("not_found", "There is nothing at this address."),
    405: ("method_not_allowed", "This address does not accept that method."),
    406: ("not_acceptable", "No acceptable representation."),
    413: ("body_too_large", "The request body is too large."),
    415: ("unsupported_media_type", "Send JSON (Content-Type: application/json)."),
}


async def _app_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AppError)
    return error_response(exc.status, exc.code, exc.message, exc.details, exc.headers)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code, message = _HTTP_CODES.get(exc.status_code, ("http_error", "The request failed."))
    try:
        phrase = HTTPStatus(exc.status_code).phrase
    except ValueError:
        phrase = ""
    if isinstance(exc.detail, str) and exc.detail and exc.detail != phrase:
        message = exc.detail  # a specific sentence from whoever raised it
    headers = dict(exc.headers) if exc.headers else {}
    if exc.status_code == 405:
        headers["Allow"] = ", ".join(_allowed_methods(request))
    return error_response(exc.status_code, code, message, headers=headers or None)


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route at this path takes (one path may have a route per method; starlette's own Allow
    names only the first route's)."""
    allowed: set[str] = set()
    # Matched from the app's root: inside a mount (the static files) the scope's root_path is the mount's.
    scope = {**request.scope, "root_path": request.scope.get("app_root_path", request.scope.get("root_path", ""))}
    for context in iter_route_contexts(request.app.routes):
        match, _ = context.matches(scope)
        if match != Match.NONE:
            allowed |= set(context.methods) if context.methods else {"GET", "HEAD"}  # a mount: the client's files
    return sorted(allowed)


async def _validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    if any(error.get("type") == "json_invalid" for error in errors):
        position = next((e.get("loc", (None, None))[-1] for e in errors if e.get("type") == "json_invalid"), None)
        return error_response(400, "malformed_json", "The request body is not valid JSON.",
                              {"position": position} if isinstance(position, int) else None)
    details = [_field_error(error) for error in errors]
    message = "; ".join(f"{d['field']}: {d['message']}" if d["field"] else d["message"] for d in details)
    return error_response(422, "validation_error", message or "The request is not valid.", details)


def _field_error(error: dict[str, Any]) -> dict[str, Any]:
    location = [str(part) for part in error.get("loc", ())]
    if location and location[0] in ("body", "query", "path", "header", "cookie"):
        source, path = location[0], location[1:]
    else:
        source, path = "body", location
    message = str(error.get("msg", "invalid"))
    message = message.removeprefix("Value error, ")
    return {"field": ".".join(path), "in": source, "type": error.get("type", "invalid"), "message": message}


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(AppError, _app_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
