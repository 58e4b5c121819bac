"""The HTTP edge: one error shape for everything, body caps on the stream, request ids, health and readiness,
the origin check, the client page."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import socket

import pytest

from app.core.redis import close_redis, create_redis
from tests.support.harness import PASSWORD, Harness, open_harness


def free_port() -> int:
    """A port that was free a moment ago: nothing answers there."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"}, body
    return body["error"]


async def test_unknown_routes_and_wrong_methods_answer_in_the_error_shape(harness: Harness):
    response = await harness.client.get("/api/no-such-thing")
    assert response.status_code == 404 and error_of(response)["code"] == "not_found"
    response = await harness.client.delete("/api/me")
    assert response.status_code == 405 and error_of(response)["code"] == "method_not_allowed"


async def test_malformed_json_is_a_400_with_its_own_code(harness: Harness):
    response = await harness.client.post("/api/auth/register", content=b'{"username": "ada", "pass',
                                         headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert error_of(response)["code"] == "malformed_json"


async def test_validation_errors_list_each_field(harness: Harness):
    response = await harness.client.post("/api/auth/register", json={"username": 5})
    assert response.status_code == 422
    error = error_of(response)
    assert error["code"] == "validation_error"
    assert {(d["field"], d["in"]) for d in error["details"]} == {("username", "body"), ("password", "body")}
    ada = await harness.user("ada")
    response = await ada.get("/api/wallet/history", params={"limit": 0})
    assert response.status_code == 422 and error_of(response)["details"][0]["field"] == "limit"
    response = await ada.get("/api/wallet/history", params={"cursor": "abc"})
    assert response.status_code == 400 and error_of(response)["code"] == "invalid_cursor"


async def test_a_body_over_the_cap_is_refused_by_its_declared_length(harness: Harness):
    big = json.dumps({"username": "ada", "password": "x" * (harness.settings.max_body_bytes + 10)})
    response = await harness.client.post("/api/auth/register", content=big,
                                         headers={"content-type": "application/json"})
    assert response.status_code == 413 and error_of(response)["code"] == "body_too_large"


async def test_a_body_over_the_cap_is_refused_on_the_stream_without_a_length(harness: Harness):
    chunk = b"x" * 8192

    async def stream():
        yield b'{"username": "ada", "password": "'
        for _ in range(harness.settings.max_body_bytes // len(chunk) + 2):
            yield chunk
        yield b'"}'

    response = await harness.client.post("/api/auth/register", content=stream(),
                                         headers={"content-type": "application/json"})
    assert "content-length" not in response.request.headers
    assert response.status_code == 413 and error_of(response)["code"] == "body_too_large"
    async with harness.runtime.transaction() as session:
        from app.accounts import repository
        assert await repository.count_users(session) == 0


async def test_a_crash_is_a_bare_500_logged_with_the_request_id(harness: Harness, caplog):
    settings = harness.settings
    async with open_harness(settings) as crashing:
        async def explode() -> None:
            raise RuntimeError("secret internals")

        crashing.app.add_api_route("/api/explode", explode)
        with caplog.at_level(logging.ERROR, logger="tablestakes.http"):
            response = await crashing.client.get("/api/explode", headers={"X-Request-ID": "req-42"})
    assert response.status_code == 500
    assert response.json() == {"error": {"code": "internal_error", "message": "Something went wrong on our side.",
                                         "details": {"request_id": "req-42"}}}
    assert "secret internals" not in response.text and "Traceback" not in response.text
    assert response.headers["x-request-id"] == "req-42"
    crash = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(crash) == 1 and crash[0].request_id == "req-42"
    assert "secret internals" in caplog.text  # the trace is in the log, for the operator


async def test_request_ids_go_in_and_out(harness: Harness):
    response = await harness.client.get("/healthz", headers={"X-Request-ID": "abc-123"})
    assert response.headers["x-request-id"] == "abc-123"
    generated = (await harness.client.get("/healthz")).headers["x-request-id"]
    assert len(generated) == 32
    # Anything odd is replaced, never echoed.
    odd = await harness.client.get("/healthz", headers={"X-Request-ID": "x" * 500})
    assert odd.headers["x-request-id"] != "x" * 500


async def test_a_request_id_with_a_trailing_newline_is_replaced_not_echoed():
    """HTTP clients refuse to send a newline in a header, so this talks ASGI to the middleware directly, as a proxy
    or server that let one through would."""
    from app.core.http import RequestContextMiddleware

    async def app(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    for incoming, echoed in ((b"abc\n", False), (b"abc", True)):
        sent.clear()
        scope = {"type": "http", "method": "GET", "path": "/healthz", "headers": [(b"x-request-id", incoming)]}
        await RequestContextMiddleware(app)(scope, receive, send)
        headers = dict(sent[0]["headers"])
        assert (headers[b"x-request-id"] == incoming) is echoed, (incoming, headers)
        assert b"\n" not in headers[b"x-request-id"]


async def test_logs_are_json_lines_with_the_request_id(harness: Harness, capsys):
    from app.core.logging import JsonFormatter, request_id_var

    record = logging.LogRecord("tablestakes.test", logging.INFO, __file__, 1, "hello %s", ("world",), None)
    token = request_id_var.set("rid-7")
    try:
        line = JsonFormatter().format(record)
    finally:
        request_id_var.reset(token)
    entry = json.loads(line)
    assert entry["msg"] == "hello world" and entry["request_id"] == "rid-7" and entry["level"] == "info"


def test_a_client_s_invalid_utf8_frame_is_one_warning_line_not_an_error_with_a_traceback(capsys):
    from app.core.logging import configure_logging

    root, uvicorn_error = logging.getLogger(), logging.getLogger("uvicorn.error")
    saved = (list(root.handlers), root.level, list(uvicorn_error.filters))
    configure_logging("INFO")
    try:
        try:
            b"\xff".decode()
        except UnicodeDecodeError:  # as uvicorn's WebSocket protocol logs it, before closing the socket with 1007
            logging.getLogger("uvicorn.error").exception("Invalid UTF-8 sequence received from client.")
        logging.getLogger("uvicorn.error").error("Something else broke.")
        lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    finally:  # the logging as pytest set it up
        root.handlers[:], uvicorn_error.filters[:] = saved[0], saved[2]
        root.setLevel(saved[1])
    fault, other = lines[-2:]
    assert (fault["level"], fault["msg"], "exc" in fault) == (
        "warning", "Invalid UTF-8 sequence received from client.", False)
    assert other["level"] == "error"  # only that client fault is downgraded


async def test_health_and_readiness(harness: Harness):
    assert (await harness.client.get("/healthz")).json() == {"status": "ok"}
    response = await harness.client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert {k: body[k] for k in ("status", "database", "redis")} == {"status": "ready", "database": "ok", "redis": "ok"}
    # and this node's tables: how many it plays, those it could neither save nor cancel, refused stale writes
    assert body["tables"] == 0 and body["failed_tables"] == [] and body["fenced_writes"] == 0 and body["node"]


async def test_not_ready_when_redis_does_not_answer(harness: Harness):
    working = harness.runtime.redis
    harness.runtime.redis = create_redis(f"redis://127.0.0.1:{free_port()}/0")
    try:
        response = await harness.client.get("/readyz")
    finally:
        await close_redis(harness.runtime.redis)
        harness.runtime.redis = working
    assert response.status_code == 503
    error = error_of(response)
    assert error["code"] == "not_ready" and error["details"] == {"database": "ok", "redis": "unavailable"}


async def test_not_ready_when_the_database_does_not_answer(harness: Harness):
    from app.core.db import create_engine

    working = harness.runtime.engine
    harness.runtime.engine = create_engine(f"postgresql+asyncpg://nobody@127.0.0.1:{free_port()}/none",
                                           pool_size=1, max_overflow=0)
    try:
        response = await harness.client.get("/readyz")
    finally:
        await harness.runtime.engine.dispose()
        harness.runtime.engine = working
    assert response.status_code == 503
    assert error_of(response)["details"] == {"database": "unavailable", "redis": "ok"}


async def test_state_changing_requests_from_another_origin_are_refused(harness: Harness):
    response = await harness.client.post("/api/auth/register", json={"username": "ada", "password": PASSWORD},
                                         headers={"Origin": "https://evil.example"})
    assert response.status_code == 403 and error_of(response)["code"] == "origin_not_allowed"
    same = await harness.client.post("/api/auth/register", json={"username": "ada", "password": PASSWORD},
                                     headers={"Origin": "http://testserver"})
    assert same.status_code == 201


async def test_allowed_origins_may_call_with_credentials(harness: Harness):
    settings = harness.settings.model_copy(update={"allowed_origins": ["https://play.example"]})
    async with open_harness(settings) as other:
        response = await other.client.post("/api/auth/login", json={"username": "nobody", "password": PASSWORD},
                                           headers={"Origin": "https://play.example"})
        assert response.status_code == 401  # past the origin check
        assert response.headers["access-control-allow-origin"] == "https://play.example"
        assert response.headers["access-control-allow-credentials"] == "true"


@pytest.mark.parametrize("has_page", [True, False])
async def test_the_root_serves_the_client_page_when_there_is_one(harness: Harness, has_page: bool):
    static = harness.settings.data_dir / "static-test"
    static.mkdir()
    if has_page:
        (static / "index.html").write_text("<!doctype html><title>Tablestakes</title>")
        (static / "app.js").write_text("export {}")
    settings = harness.settings.model_copy(update={"static_dir": static})
    async with open_harness(settings) as other:
        response = await other.client.get("/")
        assert response.status_code == 200
        if has_page:
            assert response.headers["content-type"].startswith("text/html") and "<title>" in response.text
            script = await other.client.get("/static/app.js")
            assert script.status_code == 200
            # Kept by the browser but asked for again each time: unchanged, it costs a 304 and no body.
            assert script.headers["cache-control"] == response.headers["cache-control"] == "no-cache"
            again = await other.client.get("/static/app.js", headers={"If-None-Match": script.headers["etag"]})
            assert again.status_code == 304 and again.content == b""
            assert again.headers["cache-control"] == "no-cache"
        else:
            assert response.json()["service"] == "tablestakes"


@pytest.mark.parametrize("origin, host, allowed, ok", [
    ("http://testserver", "testserver", [], True),
    ("https://play.example:8443", "play.example:8443", [], True),
    ("https://evil.example", "play.example", [], False),
    ("https://evil.example", None, [], False),
    ("https://app.example/", "api.example", ["https://APP.example"], True),
    ("null", "play.example", [], False),
])
def test_the_origin_rule(origin, host, allowed, ok):
    from app.core.http import origin_allowed

    assert origin_allowed(origin, host, allowed) is ok


async def test_every_response_carries_the_security_headers_and_the_page_its_policy(harness: Harness):
    static = harness.settings.data_dir / "static-csp"
    static.mkdir()
    import_map = '\n    {"imports": {"preact": "/static/vendor/preact.module.js"}}\n  '
    (static / "index.html").write_text(f'<!doctype html><title>T</title><script type="importmap">{import_map}</script>'
                                       '<script type="module" src="/static/app.js"></script>')
    (static / "app.js").write_text("export {}")
    settings = harness.settings.model_copy(update={"static_dir": static})
    async with open_harness(settings) as other:
        async def explode() -> None:
            raise RuntimeError("boom")

        other.app.add_api_route("/api/explode", explode)
        page = await other.client.get("/")
        responses = [page, await other.client.get("/static/app.js"), await other.client.get("/api/me"),
                     await other.client.get("/healthz"), await other.client.get("/api/no-such-thing"),
                     await other.client.get("/api/explode")]
        assert [r.status_code for r in responses] == [200, 200, 401, 200, 404, 500]
        for response in responses:
            assert response.headers["x-content-type-options"] == "nosniff"
            assert response.headers["x-frame-options"] == "DENY"
            assert response.headers["referrer-policy"] == "no-referrer"
            assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        # The page: scripts from this site and the inline import map by its hash; nothing inline otherwise.
        digest = base64.b64encode(hashlib.sha256(import_map.encode()).digest()).decode()
        directives = dict(part.strip().split(" ", 1) for part in page.headers["content-security-policy"].split(";"))
        assert directives["script-src"] == f"'self' 'sha256-{digest}'"
        assert directives["style-src"] == "'self'" and directives["object-src"] == "'none'"
        assert "unsafe" not in page.headers["content-security-policy"]
        # Anything else, opened as a document, may run nothing at all.
        for response in responses[1:]:
            assert response.headers["content-security-policy"].startswith("default-src 'none'")
