"""Facts for the statistics pages: turn-backs and per-dive results, only when asked."""

import json
from pathlib import Path

from engines.core.replay import replay

GOLDEN = Path(__file__).parent / "golden"


def load(name: str) -> dict:
    return json.loads((GOLDEN / name).read_text())


def test_the_short_game_reports_each_turn_back_with_dive_turn_depth_air_and_chips():
    facts = replay(
        load("deep-sea-adventure/hand-written-short-game.json"), collect_facts=True
    ).facts
    turn_backs = [fact for fact in facts if fact["type"] == "turn-back"]
    assert turn_backs[0] == {
        "type": "turn-back",
        "dive": 1,
        "seat": 0,
        "turn": 2,
        "depth": 2,
        "air": 24,
        "chips": 1,
    }
    assert len(turn_backs) == 6


def test_each_dive_reports_points_banked_drowned_seats_and_boosts():
    log = load("deep-sea-adventure/hand-written-short-game.json")
    facts = replay(log, collect_facts=True).facts
    dives = [fact for fact in facts if fact["type"] == "dive-end"]
    assert [fact["dive"] for fact in dives] == [1, 2, 3]
    assert [sum(column) for column in zip(*(f["points"] for f in dives), strict=True)] == (
        log["result"]["scores"]
    )
    assert all(fact["drowned"] == [] and fact["boosts"] == [0, 0] for fact in dives)


def test_boost_games_count_the_boosts_each_seat_used_per_dive():
    log = load("deep-sea-adventure-boost/boost-only.json")
    events = log["events"]
    facts = replay(log, collect_facts=True).facts
    counted = [0] * len(log["players"])
    for fact in facts:
        if fact["type"] == "dive-end":
            counted = [a + b for a, b in zip(counted, fact["boosts"], strict=True)]
    boosts = [
        sum(1 for e in events if e["type"] == "boost" and e["seat"] == seat) for seat in range(3)
    ]
    assert counted == boosts
    assert sum(boosts) > 0


def test_without_collect_facts_no_facts_are_gathered():
    assert replay(load("deep-sea-adventure/hand-written-short-game.json")).facts is None
