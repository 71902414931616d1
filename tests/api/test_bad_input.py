"""Every kind of bad input gets a clear 4xx (or a rejected verdict) naming the problem, never
a 500, and leaves everything already stored untouched."""

import json

import pytest
from django.test import Client
from games_support import human_log, jsonl, sitting_as, submit, text

from games.models import Game, GameLog, Upload

pytestmark = pytest.mark.django_db
__all__ = ["submit"]


@pytest.fixture
def client_with_a_stored_game(django_user_model, submit):
    """A signed-in API client, and one verified game already stored."""
    submit(text(human_log(seed=40)))
    client = Client(enforce_csrf_checks=False)
    client.force_login(sitting_as(django_user_model.objects.create_user("uploader")))
    return client


def snapshot() -> tuple:
    return (
        list(GameLog.objects.values_list("pk", "status", "sha256")),
        Game.objects.count(),
        Upload.objects.count(),
    )


def post_log(client: Client, body: bytes):
    return client.post("/api/logs/", data=body, content_type="application/json")


def bad_log_with(**changes) -> bytes:
    log = human_log(seed=41)
    log.update(changes)
    return json.dumps(log).encode()


REFUSED_BODIES = {
    "invalid JSON": (b'{"format": "deepsea-log/1",', "invalid JSON"),
    "invalid UTF-8": (b'{"format": "\xff\xfe"}', "not UTF-8"),
    "JSON nested 100,000 deep": (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    "a 5,000-digit number": (b'{"format": ' + b"9" * 5000 + b"}", "digits is too long"),
    "NaN": (b'{"format": "deepsea-log/1", "score": NaN}', "NaN is not allowed"),
    "wrong format": (bad_log_with(format="deepsea-log/9"), "unknown format"),
    "wrong game": (bad_log_with(game="chess"), "unknown game"),
    "an empty file": (b"", "empty log"),
}


@pytest.mark.parametrize("case", list(REFUSED_BODIES))
def test_a_body_that_is_not_a_log_gets_400_naming_the_problem(client_with_a_stored_game, case):
    body, message = REFUSED_BODIES[case]
    before = snapshot()

    response = post_log(client_with_a_stored_game, body)

    assert response.status_code == 400
    assert message in response.json()["detail"]
    assert snapshot() == before


def test_a_body_over_the_size_limit_gets_413(client_with_a_stored_game, settings):
    settings.GAMES_MAX_LOG_BYTES = 1000
    before = snapshot()

    response = post_log(client_with_a_stored_game, b" " * 1001)

    assert response.status_code == 413
    assert "at most 1000 bytes" in response.json()["detail"]
    assert snapshot() == before


@pytest.mark.parametrize(
    ("breakage", "kind"),
    [
        ("schema", "malformed"),
        ("illegal move", "illegal"),
        ("claimed result", "result-mismatch"),
    ],
)
def test_a_log_the_engine_refuses_is_stored_rejected_with_its_error(
    client_with_a_stored_game, django_capture_on_commit_callbacks, breakage, kind
):
    log = human_log(seed=42)
    if breakage == "schema":
        log["players"][0]["colour"] = "red"  # not in the JSON Schema
    elif breakage == "illegal move":
        log["events"] = log["events"][:5] + log["events"][4:]  # one event twice
    else:
        log["result"]["scores"] = [s + 1 for s in log["result"]["scores"]]
    games_before = list(Game.objects.values_list("pk", flat=True))

    with django_capture_on_commit_callbacks(execute=True):
        response = post_log(client_with_a_stored_game, json.dumps(log).encode())

    assert response.status_code == 201
    stored = GameLog.objects.get(pk=response.json()["id"])
    assert stored.status == GameLog.Status.REJECTED
    assert stored.error["kind"] == kind
    assert stored.error["text"]
    assert list(Game.objects.values_list("pk", flat=True)) == games_before
    detail = client_with_a_stored_game.get(f"/api/logs/{stored.pk}/").json()
    assert detail["error"]["text"] == stored.error["text"]


def test_a_batch_with_bad_lines_stores_the_good_lines_and_reports_each_bad_one(
    client_with_a_stored_game, django_capture_on_commit_callbacks
):
    batch = jsonl(
        human_log(seed=43),
        "{not json",
        human_log(seed=44),
        b'{"format": "\xff"}',
        json.dumps({"format": "deepsea-log/1", "game": "go"}),
    )

    with django_capture_on_commit_callbacks(execute=True):
        response = client_with_a_stored_game.post(
            "/api/uploads/", data=batch, content_type="application/jsonl"
        )

    assert response.status_code == 202
    body = client_with_a_stored_game.get(response["Location"]).json()  # read by the task
    assert body["total"] == 2
    assert [bad["line"] for bad in body["line_errors"]] == [2, 4, 5]
    assert "invalid JSON" in body["line_errors"][0]["error"]
    assert "not UTF-8" in body["line_errors"][1]["error"]
    assert "unknown game" in body["line_errors"][2]["error"]
    lines = GameLog.objects.filter(upload=body["id"]).values_list("line", "status")
    assert sorted(lines) == [(1, "verified"), (3, "verified")]


def test_an_empty_batch_gets_400_and_stores_nothing(client_with_a_stored_game):
    before = snapshot()

    response = client_with_a_stored_game.post(
        "/api/uploads/", data=b"\n\n", content_type="application/jsonl"
    )

    assert response.status_code == 400
    assert "empty file" in response.json()["detail"]
    assert snapshot() == before
