"""The OpenAPI document (/openapi.json) tells every error a route can give, in the project's error shape.

Routes name their own errors with `responses=errors(UnknownUser, NoSuchRequest, ...)`; what comes from the edge is
added here for every route it applies to: 422 `validation_error` (with its per-field details) wherever something
is validated, 400 `malformed_json` and 413 `body_too_large` wherever a body is read, 403 `origin_not_allowed` on
POST, PUT and DELETE, 401 on every route that needs a session, and 500 `internal_error` everywhere. Each response's
description lists its codes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute, iter_route_contexts
from pydantic import BaseModel, ConfigDict, Field

from app.core.errors import AppError


class ErrorBody(BaseModel):
    code: str = Field(description="stable snake_case, for programs", examples=["not_found"])
    message: str = Field(description="a sentence for people")
    details: Any = Field(default=None, description="more about it, when there is more (optional)")


class ErrorOut(BaseModel):
    """Every error: `{"error": {"code", "message", "details"?}}`."""

    error: ErrorBody


class FieldError(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    field: str = Field(description="the field's path, dotted (empty for the whole body)")
    in_: str = Field(alias="in", description="body, query, path, header or cookie")
    type: str = Field(description="pydantic's error type, e.g. missing, string_too_long")
    message: str


class ValidationErrorBody(BaseModel):
    code: str = Field(description="validation_error", examples=["validation_error"])
    message: str
    details: list[FieldError]


class ValidationErrorOut(BaseModel):
    """A 422 `validation_error`: one entry per field that broke its rule."""

    error: ValidationErrorBody


ErrorSpec = type[AppError] | tuple[int, str]

SESSION_ERRORS = ("not_authenticated", "invalid_session", "session_revoked", "session_expired")
_STATUS_TEXT = {400: "Bad request", 401: "Not logged in", 403: "Forbidden", 404: "Not found", 409: "Conflict",
                413: "Body too large", 422: "Invalid input", 429: "Too many requests", 500: "Server error",
                503: "Unavailable"}


def errors(*specs: ErrorSpec) -> dict[int | str, dict[str, Any]]:
    """`responses=` for a route: its own errors, each an AppError class or (status, code)."""
    codes: dict[int, list[str]] = {}
    for spec in specs:
        status, code = (spec.status, spec.code) if isinstance(spec, type) else spec
        codes.setdefault(status, []).append(code)
    return {status: {"model": ErrorOut, "description": _describe(status, names)} for status, names in codes.items()}


def _describe(status: int, codes: Iterable[str]) -> str:
    listed = ", ".join(f"`{code}`" for code in dict.fromkeys(codes))
    return f"{_STATUS_TEXT.get(status, 'Error')}: {listed}"


def _codes_of(response: dict[str, Any]) -> list[str]:
    description = response.get("description", "")
    return [part.strip(" `") for part in description.split(":", 1)[1].split(",")] if ":" in description else []


def _uses(dependant: Dependant, calls: set[Any]) -> bool:
    return dependant.call in calls or any(_uses(sub, calls) for sub in dependant.dependencies)


def _validates(dependant: Dependant) -> bool:
    return bool(dependant.path_params or dependant.query_params or dependant.header_params
                or dependant.cookie_params or dependant.body_params) or any(
        _validates(sub) for sub in dependant.dependencies)


def install_openapi(app: FastAPI, *, session_dependencies: Iterable[Any],
                    full_account_dependencies: Iterable[Any] = ()) -> None:
    """Replace app.openapi with one that documents the edge's errors on every route (and 403 guest_account on
    the routes a guest may not use)."""
    authenticated = set(session_dependencies)
    full_accounts = set(full_account_dependencies)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, routes=app.routes, description=app.description)
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        for model in (ErrorOut, ValidationErrorOut):
            model_schema = model.model_json_schema(ref_template="#/components/schemas/{model}", by_alias=True)
            components.update(model_schema.pop("$defs", {}))
            components[model.__name__] = model_schema
        for name in ("HTTPValidationError", "ValidationError"):
            components.pop(name, None)
        for context in iter_route_contexts(app.routes):  # included routers' routes too, with their full paths
            route = context.original_route
            if not isinstance(route, APIRoute) or not context.include_in_schema:
                continue
            for method in context.methods or ():
                operation = schema["paths"].get(context.path_format, {}).get(method.lower())
                if operation is not None:
                    _document_edge_errors(operation, route, method, authenticated, full_accounts)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def _document_edge_errors(operation: dict[str, Any], route: APIRoute, method: str, authenticated: set[Any],
                          full_accounts: set[Any] = frozenset()) -> None:
    responses: dict[str, Any] = operation.setdefault("responses", {})
    own_422 = _codes_of(responses.get("422", {})) if "HTTPValidationError" not in str(responses.get("422")) else []
    responses.pop("422", None)
    edge: dict[int, list[str]] = {500: ["internal_error"]}
    if route.dependant.body_params:
        edge[400] = ["malformed_json", "bad_request"]
        edge[413] = ["body_too_large"]
    if method in ("POST", "PUT", "PATCH", "DELETE"):
        edge[403] = ["origin_not_allowed"]
    if full_accounts and _uses(route.dependant, full_accounts):
        edge[403] = [*edge.get(403, []), "guest_account"]
    if _uses(route.dependant, authenticated):
        edge[401] = list(SESSION_ERRORS)
    for status, codes in edge.items():
        existing = responses.get(str(status))
        merged = [*_codes_of(existing or {}), *codes]
        responses[str(status)] = {"description": _describe(status, merged), "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}}
    if _validates(route.dependant) or own_422:
        validation = {"$ref": "#/components/schemas/ValidationErrorOut"}
        schema = {"anyOf": [validation, {"$ref": "#/components/schemas/ErrorOut"}]} if own_422 else validation
        responses["422"] = {"description": _describe(422, ["validation_error", *own_422]),
                            "content": {"application/json": {"schema": schema}}}
    operation["responses"] = dict(sorted(responses.items()))
