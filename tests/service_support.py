"""What the tests that use services share. A missing service: skipped locally, a failure under
CI=true (where every service must be there, so a green CI run always exercised them). Processes
a test starts: ports, waiting, stopping, and a redis-server of its own."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from typing import NoReturn

import pytest
import redis

UNDER_CI = os.environ.get("CI", "").lower() == "true"


def service_missing(reason: str) -> NoReturn:
    """Skip locally; fail under CI, where every service must be there."""
    if UNDER_CI:
        pytest.fail(f"{reason} (required under CI=true)", pytrace=False)
    pytest.skip(reason)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def wait_until(condition: Callable[[], object], timeout: float, what: str) -> float:
    """Poll `condition` until it is true; returns the seconds it took. Fails the test at the
    deadline."""
    started = time.monotonic()
    while True:
        with contextlib.suppress(Exception):
            if condition():
                return time.monotonic() - started
        if time.monotonic() - started > timeout:
            pytest.fail(f"timed out after {timeout} s waiting for {what}", pytrace=False)
        time.sleep(0.05)


def stop(process: subprocess.Popen | None, sig: int = signal.SIGTERM, timeout: float = 30) -> None:
    """Signal the process group (a Celery worker and its pool children); SIGKILL stragglers."""
    if process is None or process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


class OwnRedis:
    """A redis-server without persistence: killing it loses every message it held."""

    def __init__(self, host: str = "127.0.0.1", also_on: str | None = None) -> None:
        if not shutil.which("redis-server"):
            service_missing("Redis: redis-server is not installed")
        self.host = host
        self.also_on = also_on
        self.port = free_port(host)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", self.host,
             *filter(None, [self.also_on]), "--save", "",
             "--appendonly", "no", "--protected-mode", "no"],
            stdout=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        wait_until(self.answers, 30, "redis-server to answer")

    def crash(self) -> None:
        stop(self.process, signal.SIGKILL)

    def url(self, host: str | None = None) -> str:
        return f"redis://{host or self.host}:{self.port}/0"

    def answers(self) -> bool:
        return redis.Redis(host=self.host, port=self.port, socket_timeout=2).ping()
