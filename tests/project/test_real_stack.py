"""The whole path on the real stack: logs come in through the API and the record page, are
stored in PostgreSQL, queued on Redis and verified or rejected by a real Celery worker."""

from __future__ import annotations

import json
import time

import pytest
from django.contrib.auth import get_user_model
from games_support import human_log, jsonl, simulated_log, text
from rest_framework.authtoken.models import Token

from engines import get_game
from engines.core.simulate import simulate
from games.models import Game, GameLog

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

FINAL = (GameLog.Status.VERIFIED, GameLog.Status.REJECTED, GameLog.Status.ERROR)


def wait_for_verdicts(expected: int, timeout: float = 60) -> None:
    """Poll the database until `expected` logs have a final verdict."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if GameLog.objects.filter(status__in=FINAL).count() >= expected:
            return
        time.sleep(0.2)
    statuses = list(GameLog.objects.values_list("pk", "status"))
    raise AssertionError(f"no verdict for every log within {timeout} s: {statuses}")


@pytest.fixture
def user():
    """Staff: these games seat bots, and only staff submit games they do not sit in."""
    return get_user_model().objects.create_user(
        "scorekeeper", password="kelp-forest-9", is_staff=True
    )


@pytest.fixture
def api(client, user):
    token = Token.objects.create(user=user)
    client.defaults["HTTP_AUTHORIZATION"] = f"Token {token.key}"
    return client


def deep_vents_log(seed: int) -> dict:
    game = get_game("deep-vents")
    return next(simulate(game, game.ruleset(None), 4, 1, seed=seed))


def test_a_batch_posted_to_the_api_is_verified_and_rejected_by_a_real_worker(
    postgresql, celery_worker, api
):
    good = deep_vents_log(seed=1)
    illegal = deep_vents_log(seed=2)
    take = next(i for i, e in enumerate(illegal["events"]) if e["type"] == "take")
    illegal["events"][take]["seat"] = (illegal["events"][take]["seat"] + 1) % 4
    mismatch = simulated_log("deep-dive", seed=3)
    mismatch["result"]["scores"][0] += 1

    response = api.post(
        "/api/uploads/",
        jsonl(good, illegal, mismatch, good, "{not json"),
        content_type="application/jsonl",
    )

    assert response.status_code == 202, response.content
    wait_for_verdicts(3)
    upload = api.get(response["Location"]).json()
    assert upload["batch_state"] == "read"
    assert [e["line"] for e in upload["line_errors"]] == [5]
    assert upload["duplicates"] == [{"line": 4, "same_as_line": 1}]
    logs = {log.line: log for log in GameLog.objects.all()}
    assert logs[1].status == GameLog.Status.VERIFIED
    assert logs[1].game.seats.count() == 4
    assert logs[2].status == GameLog.Status.REJECTED
    assert logs[2].error["index"] == take
    assert logs[2].error["kind"] == "illegal"
    assert logs[3].status == GameLog.Status.REJECTED
    assert logs[3].error["kind"] == "result-mismatch"
    assert Game.objects.count() == 1


def test_a_single_log_posted_twice_is_one_game(postgresql, celery_worker, api):
    body = text(human_log(seed=7))

    first = api.post("/api/logs/", body, content_type="application/json")
    again = api.post("/api/logs/", body, content_type="application/json")

    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"]
    wait_for_verdicts(1)
    status = api.get(f"/api/logs/{first.json()['id']}/").json()
    assert status["status"] == "verified"
    assert GameLog.objects.count() == Game.objects.count() == 1


def test_a_recorded_game_is_saved_and_verified_by_a_real_worker(
    postgresql, celery_worker, client, user
):
    client.force_login(user)
    played = simulated_log("deep-sea-adventure", seed=4)
    # What the record page posts: the game so far, no format or claimed result.
    log = {key: played[key] for key in ("game", "ruleset", "players", "setup", "events")}

    response = client.post("/record/save/", json.dumps(log), content_type="application/json")

    assert response.status_code == 201, response.content
    wait_for_verdicts(1)
    stored = GameLog.objects.get(pk=response.json()["log"])
    assert stored.status == GameLog.Status.VERIFIED
    assert stored.game.game_type == "deep-sea-adventure"
