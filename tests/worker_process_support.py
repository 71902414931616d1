"""Real `celery worker` processes (prefork pool) for the tests of the real stack: started on
the test database and the configured Redis, consuming a queue of the test's own."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from django.db import connection

from deepsea.celery import app as celery_app

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def worker_queue(redis_broker_url, postgresql, transactional_db):
    """Tasks go to a queue of this test's own through the broker (not eagerly); rows are
    committed, so a worker in another process sees them."""
    queue = f"test-worker-{uuid.uuid4().hex}"
    conf = celery_app.conf
    previous = conf.task_always_eager, conf.task_default_queue, conf.interactive_queue
    conf.task_always_eager = False
    # Single logs' verifications too (deepsea.celery.route_task): one queue for everything.
    conf.task_default_queue = conf.interactive_queue = queue
    yield queue
    conf.task_always_eager, conf.task_default_queue, conf.interactive_queue = previous
    redis.Redis.from_url(redis_broker_url).delete(
        queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}"
    )


def start_worker(
    queue: str,
    broker: str,
    concurrency: int = 2,
    loglevel: str = "WARNING",
    output: Path | None = None,
) -> subprocess.Popen:
    """A real prefork worker in its own process group, on the test database; its output
    goes to `output` when given."""
    db = connection.settings_dict
    # As deployed: only the environment's variables, never the test process's settings module
    # (pytest-django sets DJANGO_SETTINGS_MODULE; `celery -A deepsea` must find it itself).
    inherited = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env = {
        **inherited,
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}"
        f":{db['PORT'] or 5432}/{db['NAME']}",
        "CELERY_BROKER_URL": broker,
    }
    command = [
        sys.executable, "-m", "celery", "-A", "deepsea", "worker", "-Q", queue,
        "--concurrency", str(concurrency), "--pool", "prefork", "--loglevel", loglevel,
        "--hostname", f"test-{uuid.uuid4().hex[:8]}@%h",
    ]  # fmt: skip
    stream = output.open("w") if output else None
    try:
        return subprocess.Popen(
            command, cwd=ROOT, env=env, start_new_session=True, stdout=stream, stderr=stream
        )
    finally:
        if stream:
            stream.close()


def kill(worker: subprocess.Popen) -> None:
    """SIGKILL the worker and its pool children: no chance to acknowledge or clean up."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(timeout=10)


def stop(worker: subprocess.Popen, timeout: float = 30) -> None:
    """A warm shutdown (SIGTERM: finish the task at hand, then exit); killed if it hangs."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(worker.pid, signal.SIGTERM)
    try:
        worker.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill(worker)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.pid, signal.SIGKILL)  # any pool child left behind


def wait_until(
    condition, timeout: float, what: str, worker: subprocess.Popen | None = None
) -> None:
    """Poll `condition`; fail after `timeout` s, or at once when `worker` has exited."""
    deadline = time.monotonic() + timeout
    while not condition():
        if worker is not None and worker.poll() is not None:
            pytest.fail(f"the worker exited ({worker.returncode}) before {what}", pytrace=False)
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}", pytrace=False)
        time.sleep(0.002)
