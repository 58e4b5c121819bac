"""Schemathesis over the app's own /openapi.json, in process, on every backend (issue 14): requests generated from
the document (valid ones, and ones that break it), sent by a logged-in player so that authenticated routes are
reached too. No answer may be a server error, and every answer must be one the document describes: a documented
status, JSON, and a body that fits its schema (the error shape for errors).

The app runs in an event loop of its own (an anyio portal, as Starlette's TestClient does), because hypothesis
drives this test synchronously; each generated request is sent there with a fresh session cookie (a generated
`logout` may end the previous one). Bounded: a few examples per operation and mode, about a minute per backend.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx
import pytest
import schemathesis
from anyio.from_thread import start_blocking_portal
from hypothesis import HealthCheck, given, settings as hypothesis_settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                               status_code_conformance)

from app.config import Settings
from app.core.security import SESSION_COOKIE
from tests.support.harness import BASE_URL, open_harness

EXAMPLES_PER_OPERATION = 8
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def _request_kwargs(case: Any) -> dict[str, Any]:
    """The case as httpx.AsyncClient.request arguments (schemathesis serializes it for requests)."""
    data = case.as_transport_kwargs(base_url=BASE_URL)
    kwargs: dict[str, Any] = {"method": data["method"], "url": data["url"], "headers": data.get("headers") or {},
                              "params": data.get("params")}
    if "json" in data:
        kwargs["json"] = data["json"]
    elif data.get("data") is not None:
        body = data["data"]
        if isinstance(body, (bytes, str)):
            kwargs["content"] = body
        else:
            kwargs["data"] = body
    return kwargs


def fuzz(app_settings: Settings, *, clean: bool) -> tuple[list[str], Counter[str]]:
    """Every operation, positive and negative data: returns the failures (empty when all held) and how many answers
    of each status class (2xx, 4xx...) each operation gave."""
    failures: list[str] = []
    answers: Counter[str] = Counter()
    with start_blocking_portal() as portal, \
            portal.wrap_async_context_manager(open_harness(app_settings, clean=clean)) as harness:
        player = portal.call(harness.create_user, "fuzzer")
        client = harness.new_client()
        schema = schemathesis.openapi.from_dict(portal.call(client.get, "/openapi.json").json())

        async def send(kwargs: dict[str, Any]) -> httpx.Response:
            client.cookies.set(SESSION_COOKIE, await harness.session_token(player.id))
            response = await client.request(**kwargs)
            await response.aread()
            answers[f"{kwargs['method']} {response.status_code // 100}xx"] += 1
            return response

        for result in schema.get_all_operations():
            operation = result.ok()
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                @hypothesis_settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, database=None,
                                     derandomize=True, suppress_health_check=list(HealthCheck))
                @given(case=operation.as_strategy(generation_mode=mode))
                def check(case: Any) -> None:
                    kwargs = _request_kwargs(case)
                    response = portal.call(send, kwargs)
                    try:
                        case.validate_response(response, checks=CHECKS)
                    except Exception as failure:
                        failures.append(f"{operation.label} ({mode.value}): {kwargs['method']} {kwargs['url']}"
                                        f" -> {response.status_code} {response.text[:300]}\n{failure}")
                        raise

                try:
                    check()
                except Exception:
                    pass  # recorded above, with the request that failed; go on with the other operations
    return failures, answers


def test_the_api_answers_generated_requests_as_its_document_says(settings: Settings, backend: str):
    failures, answers = fuzz(settings, clean=backend == "services")
    assert not failures, "\n\n".join(failures[:10])
    print(dict(answers))
    # It did reach the app, logged in: accepted requests and refused ones, for reading and for writing.
    assert answers["GET 2xx"] and answers["POST 2xx"] and answers["GET 4xx"] and answers["POST 4xx"]
    assert sum(answers.values()) >= 300
