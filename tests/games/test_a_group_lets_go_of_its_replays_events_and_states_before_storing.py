"""A verified group holds each replay without its log's events and its game's final state,
its seats' summaries taken at once (verification.held): freed while they are fresh in the
processor's cache rather than a group's hundred at once after storing it (issue 25, CPU per
verified log). The seats stored are the same."""

import json
from types import SimpleNamespace

import pytest
from games_support import simulated_log, text

from games.models import GameLog, GameSeat, Upload
from games.services import verification
from games.services.verification import SUMMARY_JSON, Replayed, held, replay_raw


def named_log(game_id: str, seed: int, players: int) -> dict:
    log = simulated_log(game_id, seed, players)
    log["players"] = [
        {**entry, "name": f"Held diver {seed}-{seat}"} for seat, entry in enumerate(log["players"])
    ]
    return log


def test_a_held_replay_keeps_the_seats_summaries_and_neither_events_nor_state():
    parsed, replayed = replay_raw(text(named_log("deep-vents", 7, 4)))
    summaries = replayed.game.seat_summary(replayed.state)

    kept, kept_replay = held(parsed, replayed)

    assert kept is parsed and "events" not in kept and kept["players"]
    assert isinstance(kept_replay, Replayed) and not hasattr(kept_replay, "state")
    assert kept_replay.summaries == summaries
    assert (kept_replay.game, kept_replay.ruleset, kept_replay.outcome, kept_replay.facts) == (
        replayed.game,
        replayed.ruleset,
        replayed.outcome,
        replayed.facts,
    )


def test_a_replay_whose_summary_fails_is_held_whole_to_fail_where_it_always_did():
    def fail(state):
        raise RuntimeError("no summary")

    parsed = {"players": [], "events": []}
    replayed = SimpleNamespace(game=SimpleNamespace(seat_summary=fail), state=object())

    assert held(parsed, replayed) == (parsed, replayed)
    assert "events" in parsed


@pytest.mark.django_db
def test_a_groups_seats_hold_the_summaries_each_logs_replay_gives():
    upload = Upload.objects.create()
    raws = [
        text(named_log(game_id, seed, players))
        for game_id, seed, players in (
            ("deep-vents", 1, 4),
            ("deep-vents", 2, 3),
            ("deep-dive", 3, 3),
        )
    ]
    ids = [
        GameLog.objects.create(
            upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type=json.loads(raw)["game"]
        ).pk
        for raw in raws
    ]

    verification.verify_logs(ids)

    for log_id, raw in zip(ids, raws, strict=True):
        _, replayed = replay_raw(raw)
        expected = replayed.game.seat_summary(replayed.state)
        seats = GameSeat.objects.filter(game__log_id=log_id).order_by("seat")
        assert [seat.summary for seat in seats] == [
            None
            if expected.get(seat.seat) is None
            else json.loads(SUMMARY_JSON(expected[seat.seat]))
            for seat in seats
        ]
    assert any(seat.summary for seat in GameSeat.objects.all())
