"""A real web stack in subprocesses, for tests and benchmarks that need gunicorn itself: a
migrated SQLite file, gunicorn (its default 30 s timeout) on a free port, and on demand a
Celery worker, all on a redis-server of the stack's own, or on a Redis database of the
caller's choosing (which it flushes). Its worker consumes the site's own queue names, so two
stacks on one Redis database would take each other's messages: tests give each its own server."""

from __future__ import annotations

import atexit
import fcntl
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import redis
from service_support import OwnRedis

PROJECT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until(condition: Callable[[], object], timeout: float, what: str) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.05)
    raise TimeoutError(f"gave up waiting for {what} after {timeout} s")


@dataclass
class WebStack:
    directory: Path
    environment: dict[str, str]
    port: int = 0
    token: str = ""
    processes: list[subprocess.Popen] = field(default_factory=list)
    gunicorn: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def manage(self, *arguments: str) -> str:
        finished = subprocess.run(
            [sys.executable, "manage.py", *arguments],
            cwd=PROJECT,
            env=self.environment,
            capture_output=True,
            text=True,
            check=True,
            timeout=300,
        )
        return finished.stdout

    def query(self, sql: str, *parameters) -> list[tuple]:
        with sqlite3.connect(self.directory / "db.sqlite3", timeout=30) as database:
            return database.execute(sql, parameters).fetchall()

    def web_worker_pid(self) -> int:
        """The pid of gunicorn's (single) worker process, which serves the requests."""
        children = Path(f"/proc/{self.gunicorn.pid}/task/{self.gunicorn.pid}/children")
        return int(wait_until(lambda: children.read_text().split(), 30, "gunicorn's worker")[0])

    def start_worker(self) -> subprocess.Popen:
        worker = subprocess.Popen(
            [str(BIN / "celery"), "-A", "deepsea", "worker", "--pool", "solo",
             "--loglevel", "WARNING", "--without-gossip", "--without-mingle"],
            cwd=PROJECT, env=self.environment,
        )  # fmt: skip
        self.processes.append(worker)
        return worker


@contextmanager
def web_stack(
    directory: Path, broker_url: str | None = None, **settings: str
) -> Iterator[WebStack]:
    """Gunicorn serving a fresh database in `directory`; a user's API token in `token`. With
    no `broker_url`, a redis-server of its own (stopped with the stack)."""
    if broker_url is None:
        broker = OwnRedis()
        broker.start()
        try:
            with web_stack(directory, broker.url(), **settings) as stack:
                yield stack
        finally:
            broker.crash()
        return
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO", "DATABASE"))},
        "DATABASE_URL": f"sqlite:///{directory / 'db.sqlite3'}",
        "CELERY_BROKER_URL": broker_url,
        "REDIS_CACHE_URL": broker_url,
        "DEBUG": "true",
        "UPLOADS_PER_HOUR": "1000000000",  # bulk loads, not the throttle, are measured
        "PYTHONPATH": str(PROJECT),
        **settings,
    }
    stack = WebStack(directory, environment, port=free_port())
    redis.Redis.from_url(broker_url).flushdb()
    create_database(stack)
    stack.gunicorn = subprocess.Popen(
        [str(BIN / "gunicorn"), "deepsea.wsgi", "--bind", f"127.0.0.1:{stack.port}",
         "--workers", "1", "--log-level", "warning"],
        cwd=PROJECT, env=environment,
    )  # fmt: skip
    stack.processes.append(stack.gunicorn)
    try:
        wait_until(lambda: port_open(stack.port), 60, "gunicorn to listen")
        yield stack
    finally:
        for process in reversed(stack.processes):
            process.terminate()
        for process in stack.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        redis.Redis.from_url(broker_url).flushdb()


class MigratedDatabase:
    """The first stack's database file, migrated and with its user's token, kept for the
    stacks after it in this process: each gets a copy, instead of a `manage.py` run of its
    own (seconds, most of a stack's start)."""

    content: bytes | None = None
    token: str = ""


def copy_of_a_migrated_sqlite_database(destination: Path, environment: dict[str, str]) -> None:
    """A SQLite file with every migration applied, at `destination`. `manage.py migrate` (half
    a minute on a loaded machine) runs once per test run, shared by its processes (under
    pytest-xdist they share the run's id) under a lock; each caller gets a copy."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or str(os.getpid())
    shared = Path(tempfile.gettempdir()) / f"deepsea-migrated-{run}.sqlite3"
    with open(f"{shared}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not shared.exists():
            building = shared.with_suffix(".building")
            building.unlink(missing_ok=True)
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--no-input"],
                cwd=PROJECT, env={**environment, "DATABASE_URL": f"sqlite:///{building}"},
                capture_output=True, text=True, check=True, timeout=300,
            )  # fmt: skip
            building.rename(shared)
            for made in (shared, Path(f"{shared}.lock")):
                atexit.register(made.unlink, missing_ok=True)
    shutil.copyfile(shared, destination)


def create_database(stack: WebStack) -> None:
    database = stack.directory / "db.sqlite3"
    if MigratedDatabase.content is None:
        copy_of_a_migrated_sqlite_database(database, stack.environment)
        MigratedDatabase.token = stack.manage(
            "shell",
            "-c",
            "from django.contrib.auth.models import User; from rest_framework.authtoken.models "
            "import Token; user = User.objects.create_user('bulk', is_staff=True); "
            "print(Token.objects.create(user=user).key)",
        ).split()[-1]  # the shell first says what it imported
        MigratedDatabase.content = database.read_bytes()
    else:
        database.write_bytes(MigratedDatabase.content)
    stack.token = MigratedDatabase.token


def port_open(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def post_batch(stack: WebStack, lines: Iterator[bytes], size: int) -> tuple[int, dict, float]:
    """POST a JSON Lines body of `size` bytes made of `lines`, streamed; returns (status,
    headers, seconds from the last byte sent to the answer)."""
    with socket.create_connection(("127.0.0.1", stack.port)) as connection:
        connection.sendall(
            (
                "POST /api/uploads/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Token {stack.token}\r\nContent-Type: application/jsonl\r\n"
                f"Content-Length: {size}\r\nConnection: close\r\n\r\n"
            ).encode()
        )
        for line in lines:
            connection.sendall(line)
        sent = time.monotonic()
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    waited = time.monotonic() - sent
    head, _, _ = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in header_lines)
    return int(status_line.split()[1]), headers, waited
