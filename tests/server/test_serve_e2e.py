"""The real thing: `tablestakes serve --port 0` as a subprocess with nothing configured (embedded: ./data), used over
HTTP; stopped and started again, the account and its coins are still there. Plus `migrate` and `grant`."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import httpx

from tests.support.harness import PASSWORD
from tests.support.server import ServeProcess, run_cli


def test_serve_embedded_register_login_balance_then_restart_and_everything_is_still_there(tmp_path: Path):
    workdir = tmp_path
    server = ServeProcess(workdir)
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", server.url) and not server.url.endswith(":0")
        with httpx.Client(base_url=server.url, timeout=30) as client:
            assert client.get("/healthz").json() == {"status": "ok"}
            assert client.get("/readyz").json()["status"] == "ready"
            registered = client.post("/api/auth/register", json={"username": "Ada", "password": PASSWORD})
            assert registered.status_code == 201, registered.text
        with httpx.Client(base_url=server.url, timeout=30) as client:
            login = client.post("/api/auth/login", json={"username": "ada", "password": PASSWORD})
            assert login.status_code == 200
            assert client.get("/api/wallet").json() == {"balance": 1000}
            cookie = client.cookies["ts_session"]
    finally:
        assert server.stop() == 0

    data = workdir / "data"
    assert (data / "tablestakes.db").is_file()
    assert stat.S_IMODE((data / "secret_key").stat().st_mode) == 0o600
    secret = (data / "secret_key").read_text()

    granted = run_cli(workdir, "grant", "ADA", "250", "--reason", "tournament win")
    assert granted.returncode == 0, granted.stderr
    assert "balance now 1250" in granted.stdout
    unknown = run_cli(workdir, "grant", "nobody", "5", "--reason", "x")
    assert unknown.returncode == 1 and "no user called 'nobody'" in unknown.stderr
    migrated = run_cli(workdir, "migrate")
    assert migrated.returncode == 0 and "database at revision" in migrated.stdout

    server = ServeProcess(workdir)
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            client.cookies.set("ts_session", cookie)  # the session survived the restart too
            assert client.get("/api/me").json()["username"] == "Ada"
            fresh = httpx.Client(base_url=server.url, timeout=30)
            with fresh:
                assert fresh.post("/api/auth/login", json={"username": "Ada", "password": PASSWORD}).status_code == 200
                assert fresh.get("/api/wallet").json() == {"balance": 1250}
                reasons = [i["reason"] for i in fresh.get("/api/wallet/history").json()["items"]]
                assert reasons == ["grant: tournament win", "welcome"]
    finally:
        assert server.stop() == 0
    assert (data / "secret_key").read_text() == secret  # generated once, kept
