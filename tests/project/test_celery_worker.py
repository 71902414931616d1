"""A real Celery worker on the configured Redis and database runs the product's tasks: in a
thread of the test process, and as the `celery worker` command deployments run (prefork)."""

import pytest
from django.db import transaction
from django.db.models import Sum
from django.test import Client
from games_support import human_log, sitting_as, text

from games.models import Game, GameLog
from players.models import Player
from ratings.models import PendingRating, Rating
from ratings.tasks import rate_games_task
from stats.models import StrategyCubeLive
from tests.worker_process_support import start_worker, stop, wait_until, worker_queue

pytestmark = pytest.mark.services
__all__ = ["worker_queue"]
FINAL = (GameLog.Status.VERIFIED, GameLog.Status.REJECTED)


def test_worker_runs_a_task_queued_on_commit(celery_worker):
    with transaction.atomic():
        Player.objects.create(handle="marina", display_name="Marina Abyss")
        rate_games_task.delay_on_commit("deep-dive")

    finished = celery_worker.wait_for(rate_games_task.name)

    assert finished.args == ("deep-dive",)
    assert finished.state == "SUCCESS"


def test_the_celery_worker_command_verifies_uploads_into_games_ratings_and_statistics(
    worker_queue, redis_broker_url, django_user_model, tmp_path
):
    client = Client()
    # The uploader plays as Nemo, who sits in human_log's games (the others are guests).
    client.force_login(sitting_as(django_user_model.objects.create_user("uploader")))
    tampered = human_log(seed=12)
    tampered["result"]["scores"][0] += 1
    logs = [human_log(seed=10), human_log(seed=11), tampered]
    ids = []
    for log in logs:  # each request commits, queueing its log on the broker
        response = client.post("/api/logs/", data=text(log), content_type="application/json")
        assert response.status_code == 201, response.content
        ids.append(response.json()["id"])
    assert set(GameLog.objects.values_list("status", flat=True)) == {GameLog.Status.QUEUED}

    output = tmp_path / "worker.log"
    worker = start_worker(worker_queue, redis_broker_url, concurrency=1, loglevel="INFO",
                          output=output)  # fmt: skip
    try:
        wait_until(
            lambda: GameLog.objects.filter(pk__in=ids, status__in=FINAL).count() == len(ids),
            timeout=90,
            what="the worker's verdicts",
            worker=worker,
        )
        # The worker rates the games right after each verifying commit.
        wait_until(
            lambda: not PendingRating.objects.exists(),
            timeout=30,
            what="the worker's ratings",
            worker=worker,
        )
    finally:
        stop(worker)

    statuses = dict(GameLog.objects.filter(pk__in=ids).values_list("pk", "status"))
    assert [statuses[pk] for pk in ids] == ["verified", "verified", "rejected"]
    assert GameLog.objects.get(pk=ids[2]).error["kind"] == "result-mismatch"
    assert Game.objects.filter(log_id__in=ids[:2]).count() == 2
    # The receivers ran in the worker, the rater right after its verifying transactions.
    assert Rating.objects.filter(game_type="deep-dive").count() == 3  # the same three names
    assert set(Rating.objects.values_list("games", flat=True)) == {2}
    # Read as pages read it: the cube plus the deltas the fold has not moved in yet.
    seats = StrategyCubeLive.objects.filter(game_type="deep-dive").aggregate(n=Sum("n"))["n"]
    assert seats == 2 * 3
    # The tasks ran in a forked pool process of the `celery worker` command.
    log = output.read_text()
    assert "(prefork)" in log
    assert "ForkPoolWorker-1] Task games.tasks.verify_log_task" in log
