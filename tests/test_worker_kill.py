"""A worker killed mid-verification loses nothing: after a restart and a sweep, every log
ends verified or rejected exactly once (late acknowledgement, idempotent tasks, attempts)."""

import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from django.db import connection
from games_support import jsonl, simulated_log

from deepsea.celery import app as celery_app
from games.models import Game, GameLog, GameSeat, Source
from games.services.intake import submit_batch
from games.services.sweep import requeue_stuck_logs

pytestmark = pytest.mark.services

ROOT = Path(__file__).resolve().parent.parent
FINAL = (GameLog.Status.VERIFIED, GameLog.Status.REJECTED)


def start_worker(queue: str, broker: str) -> subprocess.Popen:
    """A real prefork worker in its own process group, on the test database."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}"
        f":{db['PORT'] or 5432}/{db['NAME']}",
        "CELERY_BROKER_URL": broker,
    }
    command = [
        sys.executable, "-m", "celery", "-A", "deepsea", "worker", "-Q", queue,
        "--concurrency", "2", "--pool", "prefork", "--loglevel", "WARNING",
        "--hostname", f"kill-{uuid.uuid4().hex[:8]}@%h",
    ]  # fmt: skip
    return subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)


def kill(worker: subprocess.Popen) -> None:
    """SIGKILL the worker and its pool children: no chance to acknowledge or clean up."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(worker.pid, signal.SIGKILL)
    worker.wait(timeout=10)


def wait_until(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}", pytrace=False)
        time.sleep(0.002)


@pytest.fixture
def worker_queue(redis_broker_url, postgresql, transactional_db):
    """Tasks go to a queue of this test's own through the broker (not eagerly)."""
    queue = f"test-kill-{uuid.uuid4().hex}"
    previous = celery_app.conf.task_always_eager, celery_app.conf.task_default_queue
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = queue
    yield queue
    celery_app.conf.task_always_eager, celery_app.conf.task_default_queue = previous
    redis.Redis.from_url(redis_broker_url).delete(
        queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}"
    )


def test_killing_a_worker_mid_verification_loses_and_repeats_nothing(
    worker_queue, redis_broker_url
):
    good = [simulated_log("deep-dive", seed=seed) for seed in range(60)]
    bad = []
    for seed in range(100, 105):
        log = simulated_log("deep-dive", seed=seed)
        log["result"]["scores"][0] += 1
        bad.append(log)
    upload = submit_batch(
        iter(jsonl(*good, *bad).splitlines(keepends=True)), user=None, source=Source.SIMULATED
    )
    assert upload.logs.count() == 65

    worker = start_worker(worker_queue, redis_broker_url)
    try:
        wait_until(
            lambda: (
                GameLog.objects.filter(status=GameLog.Status.VERIFYING).exists()
                and GameLog.objects.filter(status=GameLog.Status.VERIFIED).count() >= 3
            ),
            timeout=60,
            what="the worker to be verifying logs",
        )
        kill(worker)
        interrupted = set(
            GameLog.objects.filter(status=GameLog.Status.VERIFYING).values_list("pk", flat=True)
        )
        unfinished = GameLog.objects.exclude(status__in=FINAL).count()
        assert unfinished > 0, "the kill came too late to interrupt anything"

        worker = start_worker(worker_queue, redis_broker_url)
        # The killed worker's reserved messages come back only after Redis's visibility
        # timeout; the sweep re-queues them now (and re-queues queued logs twice: harmless).
        requeue_stuck_logs(older_than=timedelta(0))
        wait_until(
            lambda: not GameLog.objects.exclude(status__in=FINAL).exists(),
            timeout=90,
            what="every log to get its verdict",
        )
    finally:
        kill(worker)

    statuses = dict(upload.logs.values_list("line", "status"))
    assert [statuses[line] for line in range(1, 61)] == ["verified"] * 60
    assert [statuses[line] for line in range(61, 66)] == ["rejected"] * 5
    assert Game.objects.count() == 60
    assert GameSeat.objects.count() == 60 * 3
    assert all(
        attempts >= 2
        for attempts in GameLog.objects.filter(pk__in=interrupted).values_list(
            "attempts", flat=True
        )
    )
