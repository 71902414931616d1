"""Replay facts for the statistics pages (docs/log-format.md, "Replay facts")."""

import json
from collections import Counter
from pathlib import Path

import pytest

from engines import get_game, replay

GOLDEN = Path(__file__).resolve().parent / "golden" / "deep-vents"

FIELDS = {
    "bid": {"seat", "amount"},
    "pass": {"seat"},
    "turn-order": {"order", "first_player", "winning_bid", "starting_archaea"},
    "offer": {"seat", "turn", "row"},
    "take": {"seat", "turn", "hex", "position", "paid", "archaea", "offered"},
    "place": {"seat", "turn", "hex", "at", "neighbours"},
    "grow": {"seat", "turn", "hex", "at", "archaea"},
    "trigger": {"seat", "turn", "hex", "at", "repetition", "paid", "collected", "shells", "fed"},
    "attack": {"seat", "attacker", "turn", "hex", "damage", "shell", "blocked", "lost"},
    "shortfall": {"seat", "tokens"},
    "decimate": {"seat", "by", "turn", "hex", "at", "archaea", "kept", "cause"},
    "payoff": {"seat", "tokens"},
    "turn-end": {"seat", "turn", "supply", "shells", "tokens", "hex_archaea"},
    "eliminated": {"seat", "turn", "tokens"},
    "hex-totals": {"hexes"},
}


@pytest.fixture(scope="module")
def facts():
    log = json.loads((GOLDEN / "four-players-decimations-and-payoff.json").read_text())
    return log, replay(log, collect_facts=True).facts


def test_every_documented_fact_carries_its_fields(facts):
    _, rows = facts
    for row in rows:
        assert "game_turn" in row
        assert FIELDS.get(row["type"], set()) <= set(row), row


def test_there_is_an_offer_and_a_take_per_turn(facts):
    log, rows = facts
    counts = Counter(row["type"] for row in rows)
    takes = sum(e["type"] == "take" for e in log["events"])
    assert counts["offer"] == counts["take"] == counts["place"] == takes
    assert counts["turn-end"] == takes


def test_each_offer_shows_the_row_with_archaea_on_it(facts):
    _, rows = facts
    offers = [row for row in rows if row["type"] == "offer"]
    assert all([s["position"] for s in o["row"]] == [1, 2, 3, 4, 5, 6] for o in offers)
    takes = [row for row in rows if row["type"] == "take"]
    for offer, take in zip(offers, takes, strict=True):
        slot = offer["row"][take["position"] - 1]
        assert (slot["hex"], slot["archaea"]) == (take["hex"], take["archaea"])
        assert take["offered"] == [s["hex"] for s in offer["row"]]  # the statistics read it


def test_attack_facts_add_up_to_what_the_defenders_lost(facts):
    _, rows = facts
    for row in rows:
        if row["type"] == "attack":
            assert row["lost"] == row["damage"] - row["blocked"]
            assert row["shell"] or row["blocked"] == 0


def test_facts_are_skipped_unless_asked_for():
    log = json.loads((GOLDEN / "hand-recorded-example.json").read_text())
    assert replay(log).facts is None


def test_without_the_detail_facts_a_replay_keeps_every_other_fact_in_order():
    # Verification asks for no detail facts (only the game's page reads them); every other
    # fact, the statistics' and the eliminations', must come as a full replay gives it.
    detail = get_game("deep-vents").detail_facts
    seen = set()
    for path in sorted(GOLDEN.glob("*.json")):
        log = json.loads(path.read_text())
        rows = replay(log, collect_facts=True).facts
        lean = replay(log, collect_facts=True, detail_facts=False).facts
        assert lean == [row for row in rows if row["type"] not in detail], path.name
        seen |= {row["type"] for row in rows} & detail
    assert seen >= {"offer", "place", "turn-end", "passive", "shortfall", "payoff"}
