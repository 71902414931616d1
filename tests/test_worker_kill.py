"""A worker killed mid-verification loses nothing: after a restart and a sweep, every log
ends verified or rejected exactly once (late acknowledgement, idempotent tasks, attempts)."""

from datetime import timedelta

import pytest
from games_support import jsonl, simulated_log

from games.models import Game, GameLog, GameSeat, Source
from games.services.intake import submit_batch
from games.services.sweep import requeue_stuck_logs
from tests.worker_process_support import kill, start_worker, wait_until, worker_queue

pytestmark = pytest.mark.services
__all__ = ["worker_queue"]

FINAL = (GameLog.Status.VERIFIED, GameLog.Status.REJECTED)


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
