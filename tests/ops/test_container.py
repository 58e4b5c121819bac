"""The Dockerfile, really built and run (with podman: no Docker engine here), against this machine's PostgreSQL and
Redis when the tests have them (the embedded SQLite and in-process Redis otherwise): the container answers /readyz,
its HEALTHCHECK passes, a sign-up works and `tablestakes audit` runs inside it.

The base image: TABLESTAKES_BASE_IMAGE if set, else python:3.11-slim if podman has it or can pull it, else one built
from Debian's packages by deploy/debian-base-image.sh (debootstrap; about two minutes, once per machine: podman keeps
it). Options that make podman work on this kind of machine and change nothing elsewhere (README, "The container"):
runc (crun refuses the hybrid cgroup layout), lowered open-file and process limits (a container may not raise them),
and the host's CA bundle for the build's pip (behind a TLS-inspecting proxy). Skipped only without podman."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import uuid
from pathlib import Path

import httpx
import pytest

from tests.support import backends

pytestmark = [pytest.mark.container,
              pytest.mark.skipif(shutil.which("podman") is None, reason="podman is not installed (apt-get install "
                                                                           "podman runc debootstrap)")]

REPO = Path(__file__).resolve().parents[2]
DEBIAN_BASE = "localhost/tablestakes-base:bookworm"
UPSTREAM_BASE = "docker.io/library/python:3.11-slim"
CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")


def podman(*args: str, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess[str]:
    runtime = ["--runtime", "runc"] if shutil.which("runc") else []
    done = subprocess.run(["podman", *runtime, *args], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"podman {' '.join(args[:3])} failed ({done.returncode}):\n{done.stderr[-4000:]}")
    return done


LIMITS = ["--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096"]


def base_image() -> str:
    chosen = os.environ.get("TABLESTAKES_BASE_IMAGE")
    if chosen:
        return chosen
    for image in (UPSTREAM_BASE, DEBIAN_BASE):
        if podman("image", "exists", image, check=False).returncode == 0:
            return image
    if podman("pull", "--quiet", UPSTREAM_BASE, timeout=120, check=False).returncode == 0:
        return UPSTREAM_BASE
    assert shutil.which("debootstrap"), ("no registry answers and debootstrap is missing to build a base image from "
                                         "Debian's packages (apt-get install debootstrap)")
    done = subprocess.run([str(REPO / "deploy" / "debian-base-image.sh"), DEBIAN_BASE], capture_output=True,
                          text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    return DEBIAN_BASE


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_ready(url: str, container: str, timeout: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            response = httpx.get(f"{url}/readyz", timeout=2)
            if response.status_code == 200:
                return response.json()
        except httpx.HTTPError:
            pass
        state = podman("inspect", "--format", "{{.State.Status}}", container, check=False).stdout.strip()
        if state not in ("running", "created", "configured"):
            raise AssertionError(f"the container stopped ({state}):\n{podman('logs', container, check=False).stderr}")
        time.sleep(0.5)
    raise AssertionError(f"not ready in {timeout} s:\n{podman('logs', container, check=False).stderr[-4000:]}")


def test_the_image_builds_and_serves_on_postgres_and_redis(tmp_path):
    tag = f"localhost/tablestakes-test:{uuid.uuid4().hex[:8]}"
    build = ["build", "--format", "docker", "--network", "host", *LIMITS, "--build-arg", f"BASE_IMAGE={base_image()}",
             "--tag", tag]
    if CA_BUNDLE.is_file():
        build += ["--volume", f"{CA_BUNDLE}:{CA_BUNDLE}:ro"]  # RUN steps only: not kept in the image
    podman(*build, str(REPO), timeout=900)
    container = f"tablestakes-test-{uuid.uuid4().hex[:8]}"
    port = free_port()
    env = {"HOST": "127.0.0.1", "PORT": str(port), "SECRET_KEY": "container-test-secret", "LOG_LEVEL": "WARNING"}
    database = None
    redis_claim = None
    if backends.SERVICES:
        database = backends.unique_name("ts_container")
        import asyncio

        env["DATABASE_URL"] = asyncio.run(backends.create_postgres_database(database))
        env["REDIS_URL"], token = backends.claim_redis_database(backends.REDIS_URL)
        redis_claim = (env["REDIS_URL"], token)
    try:
        podman("run", "--detach", "--name", container, "--network", "host", *LIMITS,
               *[part for key, value in env.items() for part in ("--env", f"{key}={value}")], tag)
        url = f"http://127.0.0.1:{port}"
        ready = wait_ready(url, container)
        assert ready["database"] == ready["redis"] == "ok"
        health = podman("healthcheck", "run", container, check=False)
        assert health.returncode == 0, health.stdout + health.stderr
        signed_up = httpx.post(f"{url}/api/auth/register", json={"username": "Ada", "password": "correct horse"},
                               timeout=10)
        assert signed_up.status_code == 201, signed_up.text
        assert signed_up.json()["coins"] == 1000
        wallet = httpx.get(f"{url}/api/wallet", cookies=signed_up.cookies, timeout=10)
        assert wallet.json() == {"balance": 1000}
        audited = podman("exec", container, "tablestakes", "audit", check=False)
        assert audited.returncode == 0 and "no difference" in audited.stdout, audited.stdout + audited.stderr
        user = podman("exec", container, "id", "-u").stdout.strip()
        assert user == "10001"  # not root
        podman("stop", "--time", "40", container)
        assert podman("inspect", "--format", "{{.State.ExitCode}}", container).stdout.strip() == "0"
    finally:
        podman("rm", "--force", container, check=False)
        podman("rmi", "--force", tag, check=False)
        if database is not None:
            import asyncio

            asyncio.run(backends.drop_postgres_database(database))
        if redis_claim is not None:
            backends.release_redis_database(*redis_claim)
