"""A log's life on GameLog: claims with a lease, attempts counted only when verified alone,
an unexpected exception recorded as an `error` verdict at once, and a sweep that re-queues
only what is really stranded (expired leases, messages the broker does not hold)."""

import time
import uuid
from datetime import timedelta

import pytest
import redis
from django.db import OperationalError, connection
from django.utils import timezone
from games_support import human_log, jsonl, simulated_log

from common import broker
from deepsea.celery import app as celery_app
from games.models import Game, GameLog, Source, Upload
from games.services import sweep, verification
from games.services.verification import verify_log, verify_logs

pytestmark = pytest.mark.django_db


def stored_logs(count: int, first_seed: int = 0) -> list[int]:
    """Logs stored as intake stores them (queued), without sending any message."""
    upload = Upload.objects.create(source=Source.SIMULATED)
    ids = []
    for seed in range(first_seed, first_seed + count):
        raw = jsonl(simulated_log(seed=seed)).decode().strip()
        log = GameLog.objects.create(
            upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type="deep-dive"
        )
        ids.append(log.pk)
    return ids


def statuses(ids: list[int]) -> list[str]:
    return list(GameLog.objects.filter(pk__in=ids).order_by("pk").values_list("status", flat=True))


def test_logs_verified_together_use_up_no_attempt_and_one_verified_alone_uses_one():
    together, alone = stored_logs(3), stored_logs(1, first_seed=10)

    verify_logs(together)
    verify_log(alone[0])

    assert statuses(together + alone) == ["verified"] * 4
    assert (
        list(GameLog.objects.filter(pk__in=together).values_list("attempts", flat=True)) == [0] * 3
    )
    assert GameLog.objects.get(pk=alone[0]).attempts == 1


def test_a_claim_holds_a_lease_that_keeps_other_workers_off():
    [log_id] = stored_logs(1)

    claimed = GameLog.objects.claim_together([log_id], "worker-a")
    other = GameLog.objects.claim_alone(log_id, "worker-b")

    log = GameLog.objects.get(pk=log_id)
    assert claimed == {log_id}
    assert (other.status, other.lease_holder) == ("verifying", "worker-a")
    assert log.attempts == 0
    assert log.lease_expires > timezone.now()


def test_an_unexpected_exception_in_replay_ends_that_log_in_error_at_once(monkeypatch):
    ids = stored_logs(3)
    replay = verification.engines.replay
    doomed = GameLog.objects.get(pk=ids[1]).raw

    def replay_or_break(log, **kwargs):
        if verification.engines.core.log.dumps(log) == verification.engines.core.log.dumps(
            verification.loads(doomed)
        ):
            raise KeyError("an engine bug")
        return replay(log, **kwargs)

    monkeypatch.setattr(verification.engines, "replay", replay_or_break)
    verify_logs(ids)

    assert statuses(ids) == ["verified", "error", "verified"]
    error = GameLog.objects.get(pk=ids[1]).error
    assert (
        error["kind"] == "error"
        and "KeyError" in error["message"]
        and "engine bug" in error["message"]
    )
    assert Game.objects.count() == 2


def test_a_log_the_database_refuses_ends_in_error_and_its_group_is_still_stored(postgresql):
    ids = stored_logs(2)
    # A log that replays but whose seat the database refuses. (A NUL byte did that once; the
    # log is now refused when it is read.) The constraint goes with the test's transaction.
    with connection.cursor() as cursor:
        cursor.execute(
            "ALTER TABLE games_gameseat ADD CONSTRAINT refuses_one_name"
            " CHECK (name <> 'Refused By The Database')"
        )
    bad = human_log(seed=40, names=("Refused By The Database", "Nemo", "Coral"))
    raw = jsonl(bad).decode().strip()
    upload = Upload.objects.create()
    refused = GameLog.objects.create(
        upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type="deep-dive"
    )

    verify_logs([*ids, refused.pk])

    assert statuses([*ids, refused.pk]) == ["verified", "verified", "error"]
    assert "refuses_one_name" in GameLog.objects.get(pk=refused.pk).error["message"]


def test_a_database_outage_is_raised_for_the_task_to_retry_not_recorded(monkeypatch):
    [log_id] = stored_logs(1)

    def outage(*args, **kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(verification, "record_game", outage)
    with pytest.raises(OperationalError):
        verify_log(log_id, holder="task-1")
    monkeypatch.undo()

    log = GameLog.objects.get(pk=log_id)
    assert (log.status, log.attempts, log.lease_holder) == ("verifying", 1, "task-1")
    resumed = verify_log(log_id, holder="task-1", resume=True)
    assert (resumed.status, resumed.attempts) == ("verified", 1)  # the retry counts no attempt


def expire_leases(ids: list[int]) -> None:
    GameLog.objects.filter(pk__in=ids).update(lease_expires=timezone.now() - timedelta(seconds=1))


def test_the_sweep_retries_a_dead_tasks_logs_in_halves_counting_no_attempt(
    django_capture_on_commit_callbacks, monkeypatch
):
    ids = stored_logs(4)
    GameLog.objects.claim_together(ids, "dead-task")
    sent = []
    monkeypatch.setattr(
        sweep.Dispatch, "send", lambda self, task, *args: sent.append((task.name, args))
    )

    expire_leases(ids[:3])  # the fourth still has a live lease: left alone
    with django_capture_on_commit_callbacks(execute=True):
        requeued = sweep.requeue_expired_leases()

    assert requeued == 3
    assert sent == [
        ("games.tasks.verify_logs_task", (ids[:2],)),
        ("games.tasks.verify_log_task", (ids[2],)),
    ]
    assert statuses(ids) == ["queued"] * 3 + ["verifying"]
    assert list(GameLog.objects.values_list("attempts", flat=True)) == [0] * 4


def test_a_log_that_dies_whenever_verified_alone_ends_in_error_after_its_attempts(settings):
    [log_id] = stored_logs(1)
    for attempt in range(settings.GAMES_VERIFY_MAX_ATTEMPTS):
        claimed = GameLog.objects.claim_alone(log_id, f"task-{attempt}")
        assert claimed.status == "verifying"
        expire_leases([log_id])  # the worker died with it

    log = GameLog.objects.claim_alone(log_id, "one-more")

    assert log.status == "error"
    assert "failed 3 times" in log.error["message"]


@pytest.fixture
def broker_queue(redis_broker_url):
    """Messages go to a queue of this test's own on Redis, with no worker consuming it."""
    queue = f"test-sweep-{uuid.uuid4().hex}"
    conf = celery_app.conf
    previous = conf.task_always_eager, conf.task_default_queue, conf.interactive_queue
    conf.task_always_eager = False
    conf.task_default_queue = conf.interactive_queue = queue  # single logs' too
    yield redis.Redis.from_url(redis_broker_url), queue
    conf.task_always_eager, conf.task_default_queue, conf.interactive_queue = previous
    redis.Redis.from_url(redis_broker_url).delete(
        queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}"
    )


@pytest.mark.services
def test_the_sweep_leaves_logs_waiting_in_a_long_queue_and_resends_only_lost_ones(
    broker_queue, transactional_db
):
    from games.tasks import verify_logs_task

    _, queue = broker_queue
    waiting, lost = stored_logs(150), stored_logs(5, first_seed=500)
    verify_logs_task.delay(waiting[:100])
    verify_logs_task.delay(waiting[100:])
    GameLog.objects.update(status_changed=timezone.now() - timedelta(hours=1))

    resent = sweep.resend_lost_messages()

    assert resent == 5
    waiting_in_queue = [m for m in broker.pending([queue]) if m.reserved_at is None]
    carried = sorted(tuple(message.args[0]) for message in waiting_in_queue)
    assert carried == sorted([tuple(waiting[:100]), tuple(waiting[100:]), tuple(lost)])
    assert sweep.resend_lost_messages(older_than=timedelta(0)) == 0  # now carried


def test_a_task_delivered_again_after_dying_sends_its_logs_again_in_halves(
    django_capture_on_commit_callbacks, monkeypatch
):
    ids = stored_logs(3)
    GameLog.objects.claim_together(ids, "task-x")  # then the worker died
    sent = []
    monkeypatch.setattr(
        sweep.Dispatch, "send", lambda self, task, *args: sent.append((task.name, args))
    )

    with django_capture_on_commit_callbacks(execute=True):
        verify_logs(ids, holder="task-x")  # the broker's redelivery of the same task

    assert sent == [
        ("games.tasks.verify_logs_task", (ids[:2],)),
        ("games.tasks.verify_log_task", (ids[2],)),
    ]
    assert statuses(ids) == ["queued"] * 3


def test_a_message_reserved_longer_than_a_lease_no_longer_carries_its_logs(settings):
    lease = settings.GAMES_LEASE_SECONDS
    now = time.time()
    messages = [
        broker.Message("games.tasks.verify_logs_task", [[1, 2]], reserved_at=None),
        broker.Message("games.tasks.verify_log_task", [3], reserved_at=now - lease / 2),
        broker.Message("games.tasks.verify_log_task", [4], reserved_at=now - lease * 2),
        broker.Message("ratings.tasks.rate_games_task", ["deep-dive"], reserved_at=None),
    ]

    assert sweep.carried(messages) == {1, 2, 3}
