"""The step-through replay viewer's JSON: the state after each event, computed by replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engines.core.replay import replay
from games.viewer import ALL_AT_ONCE, event_in_words, replay_steps
from tests.games.test_game_page import stored_log
from tests.games_support import simulated_log


def engine_snapshots(log: dict[str, Any]) -> list[dict[str, Any]]:
    snapshots: list[dict[str, Any]] = []
    replay(log, on_event=lambda index, state: snapshots.append(state.snapshot()))
    return snapshots


def small_game() -> dict[str, Any]:
    log = simulated_log("deep-dive", seed=1, players=2)
    assert len(log["events"]) <= ALL_AT_ONCE
    return log


def long_game() -> dict[str, Any]:
    log = simulated_log("deep-vents", seed=2, players=4)
    assert len(log["events"]) > ALL_AT_ONCE
    return log


@pytest.mark.django_db
def test_a_small_game_comes_all_at_once_from_the_setup_to_the_end(client):
    log = small_game()
    stored = stored_log(log)

    data = client.get(f"/games/{stored.pk}/replay/").json()

    assert data["events"] == len(log["events"])
    assert data["error"] is None
    assert [step["index"] for step in data["steps"]] == list(range(-1, len(log["events"])))
    assert [step["snapshot"] for step in data["steps"][1:]] == engine_snapshots(log)
    assert data["steps"][0]["event"] is None
    assert data["steps"][-1]["snapshot"]["phase"] == "over"


@pytest.mark.django_db
def test_one_event_at_a_time_gives_the_same_state_as_the_engine(client):
    log = long_game()
    stored = stored_log(log)
    snapshots = engine_snapshots(log)

    for index in (0, 57, len(log["events"]) - 1):
        data = client.get(f"/games/{stored.pk}/replay/?event={index}").json()
        assert [step["index"] for step in data["steps"]] == [index]
        assert data["steps"][0]["event"] == log["events"][index]
        assert data["steps"][0]["snapshot"] == snapshots[index]


@pytest.mark.django_db
def test_the_setup_step_shows_the_table_before_any_event(client):
    log = long_game()
    stored = stored_log(log)

    step = client.get(f"/games/{stored.pk}/replay/?event=-1").json()["steps"][0]

    assert step["index"] == -1
    assert step["event"] is None
    assert [len(p["hexes"]) for p in step["snapshot"]["players"]] == [1, 1, 1, 1]
    assert [r["hex"] for r in step["snapshot"]["row"]] == log["setup"]["stack"][:6]


@pytest.mark.django_db
def test_a_long_game_is_not_sent_all_at_once(client):
    stored = stored_log(long_game())

    response = client.get(f"/games/{stored.pk}/replay/")

    assert response.status_code == 400
    assert "?event=N" in response.json()["error"]["text"]


@pytest.mark.django_db
def test_steps_are_labelled_with_what_happened(client):
    log = long_game()
    stored = stored_log(log)
    take = next(i for i, e in enumerate(log["events"]) if e["type"] == "take")

    step = client.get(f"/games/{stored.pk}/replay/?event={take}").json()["steps"][0]

    assert step["label"].startswith("take ")
    assert f"at position {log['events'][take]['position']}" in step["label"]


@pytest.mark.django_db
@pytest.mark.parametrize(("event", "status"), [("abc", 400), ("99999", 404), ("-2", 404)])
def test_a_bad_event_index_is_a_client_error(client, event, status):
    stored = stored_log(small_game())

    response = client.get(f"/games/{stored.pk}/replay/?event={event}")

    assert response.status_code == status


@pytest.mark.django_db
def test_a_rejected_log_replays_up_to_its_first_bad_event(client):
    log = small_game()
    log["events"][5] = {"type": "stay", "seat": log["events"][5]["seat"]}
    stored = stored_log(log)

    data = client.get(f"/games/{stored.pk}/replay/").json()
    after_error = client.get(f"/games/{stored.pk}/replay/?event=6")

    assert data["error"]["index"] == 5
    assert [step["index"] for step in data["steps"]] == [-1, 0, 1, 2, 3, 4]
    assert after_error.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["deep-sea-adventure", "deep-sea-adventure-boost"])
def test_deep_sea_adventure_steps_show_the_path_divers_and_air(client, game):
    log = simulated_log(game, seed=3, players=3)
    stored = stored_log(log)

    step = client.get(f"/games/{stored.pk}/replay/?event=0").json()["steps"][0]

    snapshot = step["snapshot"]
    assert len(snapshot["path"]) == 32
    assert [d["seat"] for d in snapshot["divers"]] == [0, 1, 2]
    assert snapshot["air"] <= 25


def test_an_event_in_words_is_the_replays_label_with_when_and_whose_move_it_was():
    log = small_game()
    raw = json.dumps(log)
    labels = {step["index"]: step["label"] for step in replay_steps(raw).steps}
    seat = log["events"][3]["seat"]

    words = event_in_words(raw, 3)

    assert words.startswith("round ")
    assert words.endswith(f", {log['players'][seat]['name']}: {labels[3]}")


@pytest.mark.parametrize("index", [-1, 10_000])
def test_an_event_the_log_lacks_has_no_words(index):
    assert event_in_words(json.dumps(small_game()), index) == ""


def test_an_event_past_an_illegal_one_has_no_words():
    log = small_game()
    log["events"][0] = {"type": "surface", "seat": 5}

    assert event_in_words(json.dumps(log), 3) == ""


@pytest.mark.django_db
def test_each_step_is_told_in_the_words_a_dispute_keeps_never_by_its_index(client):
    log = small_game()
    raw = json.dumps(log)
    stored = stored_log(log)

    steps = client.get(f"/games/{stored.pk}/replay/").json()["steps"]

    assert steps[0]["words"] is None  # the setup: no event
    assert [step["words"] for step in steps[1:]] == [
        event_in_words(raw, index) for index in range(len(log["events"]))
    ]
    assert steps[4]["words"].startswith("round ")


@pytest.mark.django_db
def test_where_replay_stops_is_told_in_words_beside_the_engines_text(client):
    log = small_game()
    log["players"] = [{"name": "Marina Abyss"}, {"name": "Nemo"}]
    log["events"][1]["seat"] = 0  # Marina dives first, Nemo second (DD-2)
    stored = stored_log(log)

    error = client.get(f"/games/{stored.pk}/replay/").json()["error"]

    assert error["text"].startswith("event 1 (seat 1): ")
    # A sentence, capitalised once by the server (games.viewer.error_in_words).
    assert error["words"] == (
        "Round 1, Marina Abyss: it is not Marina Abyss's turn: Nemo must roll the colour die [DD-2]"
    )
