"""A real `tablestakes serve --port 0` in a subprocess, for end-to-end tests.

    server = ServeProcess(workdir, env={"DATABASE_URL": ..., "REDIS_URL": ...})   # or nothing: embedded ./data
    try:
        httpx.get(f"{server.url}/healthz")
    finally:
        server.stop()

The port is chosen by the system; the URL is read from the line the server prints once it accepts connections.
Configuration variables of the calling environment are removed first, so only `env` configures the server.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

START_TIMEOUT = 60.0
CONFIG_VARIABLES = {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DATA_DIR", "HOST", "PORT", "START_BALANCE",
                    "ALLOWED_ORIGINS", "STATIC_DIR", "LOG_LEVEL"}


def tablestakes_command() -> list[str]:
    script = shutil.which("tablestakes", path=str(Path(sys.executable).parent))
    return [script] if script else [sys.executable, "-m", "app"]


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.upper() not in CONFIG_VARIABLES}
    env.update(extra or {})
    return env


def run_cli(workdir: Path, *args: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*tablestakes_command(), *args], cwd=workdir, env=clean_env(env), capture_output=True,
                          text=True, timeout=120)


class ServeProcess:
    def __init__(self, workdir: Path, *, env: Mapping[str, str] | None = None, args: Sequence[str] = (),
                 host: str = "127.0.0.1"):
        self.workdir = workdir
        self.log_path = workdir / "server.log"
        self._log = open(self.log_path, "a")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen([*tablestakes_command(), "serve", "--host", host, "--port", "0", *args],
                                        cwd=workdir, env=clean_env(env), stdout=subprocess.PIPE, stderr=self._log,
                                        text=True)
        self.stdout: list[str] = []
        lines: queue.Queue[str | None] = queue.Queue()

        def pump() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        self._lines = lines
        deadline = time.monotonic() + START_TIMEOUT
        self.url = ""
        while not self.url:
            try:
                line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            except queue.Empty:
                line = None
            if line is None:
                self.stop()
                raise RuntimeError(f"server did not start:\n{self.log_path.read_text()[-3000:]}")
            self.stdout.append(line)
            if found := re.search(r"(http://\S+:\d+)", line):
                self.url = found.group(1)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> int:
        """Stop (gracefully by default) and return the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout:
            self.process.stdout.close()
        self._log.close()
        return self.process.returncode
