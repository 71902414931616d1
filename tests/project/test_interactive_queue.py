"""A single log someone is waiting for (an upload, an API upload, a recording) is verified in
a queue of its own that every worker serves first, so its verdict never waits behind a
batch's thousands of logs or the lab; and workers keep their database connection between
tasks (CONN_MAX_AGE), instead of Celery's Django fixup opening one per task."""

import itertools
import json
import re
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
import redis
import yaml
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from games_support import simulated_log, text

from deepsea.celery import app as celery_app
from games.models import GameLog
from games.services import sweep
from games.services.intake import VERIFY_CHUNK, submit_batch, submit_log
from tests.worker_process_support import start_worker, stop, wait_until

ROOT = Path(__file__).resolve().parents[2]
FINAL = (GameLog.Status.VERIFIED, GameLog.Status.REJECTED)


def queue_of(task_name: str) -> str:
    return celery_app.amqp.router.route({}, task_name)["queue"].name


def test_a_single_logs_verification_goes_to_the_interactive_queue_and_a_batchs_parts_do_not():
    assert queue_of("games.tasks.verify_log_task") == "interactive"
    assert queue_of("games.tasks.verify_logs_task") == "celery"
    assert queue_of("games.tasks.read_batch_task") == "celery"
    assert queue_of("analysis.tasks.analyse_chunk_task") == "celery"
    assert queue_of("stats.tasks.simulate_chunk_task") == "celery"


def test_a_worker_started_without_queues_serves_the_interactive_queue_first():
    queues = celery_app.amqp.Queues(celery_app.conf.task_queues)

    assert next(iter(queues.consume_from)) == "interactive"
    assert celery_app.conf.broker_transport_options["queue_order_strategy"] == "priority"


def worker_commands() -> dict[str, list[str]]:
    """Every `celery worker` command the project runs: compose's services and `make run`."""
    services = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())["services"]
    commands = {
        f"compose {name}": service["command"]
        for name, service in services.items()
        if "worker" in service.get("command", [])
    }
    makefile = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    for line in re.findall(r"celery -A deepsea worker[^;&]*", makefile):
        commands["make run"] = line.split()
    return commands


@pytest.mark.parametrize("name", sorted(worker_commands()))
def test_every_worker_command_consumes_the_interactive_queue(name):
    command = worker_commands()[name]
    named = [value for flag, value in itertools.pairwise(command) if flag in ("-Q", "--queues")]

    # No -Q: every queue of CELERY_TASK_QUEUES, interactive first (the test above).
    assert not named or named[0].split(",")[0] == "interactive", command


@pytest.fixture
def two_queues(redis_broker_url, postgresql, transactional_db):
    """Single logs' verifications and everything else go to two queues of this test's own,
    named in the order of CELERY_TASK_QUEUES (a worker serves them in the order it is given)."""
    own = f"test-queues-{uuid.uuid4().hex}"
    names = {"interactive": f"{own}-interactive", "celery": f"{own}-bulk"}
    conf = celery_app.conf
    previous = conf.task_always_eager, conf.task_default_queue, conf.interactive_queue
    conf.task_always_eager = False
    conf.interactive_queue, conf.task_default_queue = names["interactive"], names["celery"]
    yield [names[queue] for queue in settings.CELERY_TASK_QUEUES if queue in names]
    conf.task_always_eager, conf.task_default_queue, conf.interactive_queue = previous
    broker = redis.Redis.from_url(redis_broker_url)
    for queue in names.values():
        broker.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")


def batch_of(count: int, first_seed: int) -> bytes:
    return b"".join(
        (json.dumps(simulated_log(seed=first_seed + n)) + "\n").encode() for n in range(count)
    )


def test_single_uploads_queued_behind_a_batch_are_verified_before_any_of_its_parts(
    two_queues, redis_broker_url, tmp_path
):
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    batch = submit_batch(iter(batch_of(3 * VERIFY_CHUNK, 100).splitlines(True)), user=staff)
    singles = [submit_log(text(simulated_log(seed=n)), user=staff).pk for n in range(3)]
    batch_ids = list(batch.logs.values_list("pk", flat=True))
    assert len(batch_ids) == 3 * VERIFY_CHUNK

    worker = start_worker(",".join(two_queues), redis_broker_url, concurrency=1,
                          output=tmp_path / "worker.log")  # fmt: skip
    try:
        wait_until(
            lambda: GameLog.objects.filter(status__in=FINAL).count() == len(batch_ids) + 3,
            timeout=180,
            what="every verdict",
            worker=worker,
        )
    finally:
        stop(worker)

    verdicts = dict(GameLog.objects.values_list("pk", "verified_at"))
    # Taken in turn (round robin), the second single log would wait for a part of a batch.
    assert max(verdicts[pk] for pk in singles) < min(verdicts[pk] for pk in batch_ids)


def test_the_sweep_leaves_a_single_log_waiting_in_the_interactive_queue_alone(two_queues):
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    waiting = submit_log(text(simulated_log(seed=1)), user=staff)
    GameLog.objects.update(status_changed=timezone.now() - timedelta(hours=1))

    assert sweep.resend_lost_messages() == 0
    assert GameLog.objects.get(pk=waiting.pk).status == GameLog.Status.QUEUED


def other_backends() -> list[tuple[int, object]]:
    """(pid, start) of the sessions on the test database other than the test's own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchall()


def test_a_worker_keeps_its_database_connection_from_one_task_to_the_next(
    two_queues, redis_broker_url, monkeypatch
):
    monkeypatch.setenv("CONN_MAX_AGE", "600")
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    worker = start_worker(",".join(two_queues), redis_broker_url, concurrency=1)
    seen = []
    try:
        for seed in range(5):  # one at a time: each task starts after the last one ended
            log = submit_log(text(simulated_log(seed=seed)), user=staff)
            wait_until(
                lambda log=log: GameLog.objects.filter(pk=log.pk, status__in=FINAL).exists(),
                timeout=60,
                what="the verdict",
                worker=worker,
            )
            seen.append(other_backends())
    finally:
        stop(worker)

    # Closed after each task (Celery's fixup), it would be gone, or another session each time.
    assert len(seen[0]) == 1
    assert seen == [seen[0]] * 5
