"""The statistics read a Deep Vents game's grows, trigger repetitions and attacks summed per
seat and hex type, from the one `hex-totals` fact its end adds (issue 25: a dict each, some
190 a game, were most of the facts' cost). The totals must be those facts (detail facts now)
summed, on every kind of game, and come alike with or without the detail facts."""

import json
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import get_game, replay
from engines.core.simulate import simulate

GOLDEN = Path(__file__).resolve().parent / "golden" / "deep-vents"
GAME = get_game("deep-vents")


def summed(facts):
    """[seat, hex, grows, archaea, triggers, collected, attacks, damage] from the detail
    facts, sorted."""
    totals = defaultdict(lambda: [0] * 6)
    for fact in facts:
        if fact["type"] == "grow":
            row = totals[(fact["seat"], fact["hex"])]
            row[0] += 1
            row[1] += fact["archaea"]
        elif fact["type"] == "trigger":
            row = totals[(fact["seat"], fact["hex"])]
            row[2] += 1
            row[3] += fact["collected"]
        elif fact["type"] == "attack" and fact["hex"] is not None:
            row = totals[(fact["attacker"], fact["hex"])]
            row[4] += 1
            row[5] += fact["damage"]
    return sorted([seat, hex_id, *row] for (seat, hex_id), row in totals.items())


def hex_totals(facts):
    (fact,) = [fact for fact in facts if fact["type"] == "hex-totals"]
    return fact


def test_a_worked_example_sums_each_seats_grows_triggers_and_attacks_per_hex_type():
    log = json.loads((GOLDEN / "four-players-decimations-and-payoff.json").read_text())
    facts = replay(log, collect_facts=True).facts
    totals = hex_totals(facts)

    assert facts[-1] is totals  # once, last: at the game's end
    assert totals["game_turn"] == max(fact["game_turn"] for fact in facts)
    assert sorted(totals["hexes"]) == summed(facts)
    assert all(any(row[2::2]) for row in totals["hexes"])  # nothing done, no row
    assert any(row[6] for row in totals["hexes"])  # this game has attacks
    assert any(row[4] for row in totals["hexes"])  # ... and triggers


@pytest.mark.parametrize("name", sorted(path.name for path in GOLDEN.glob("*.json")))
def test_every_golden_replay_has_totals_equal_to_its_facts(name):
    log = json.loads((GOLDEN / name).read_text())
    every = replay(log, collect_facts=True).facts
    lean = replay(log, collect_facts=True, detail_facts=False).facts

    assert sorted(hex_totals(every)["hexes"]) == summed(every)
    assert hex_totals(lean) == hex_totals(every)
    assert not any(fact["type"] in ("grow", "trigger", "attack") for fact in lean)  # detail


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.sampled_from(sorted(GAME.rulesets())), st.integers(0, 10**6))
def test_totals_equal_the_facts_summed_on_random_bot_games(players, ruleset, seed):
    (log,) = simulate(GAME, GAME.rulesets()[ruleset], players, 1, f"hex-totals-{seed}")
    every = replay(log, collect_facts=True).facts
    totals = hex_totals(every)
    seats = [seat for seat, *_ in totals["hexes"]]

    assert sorted(totals["hexes"]) == summed(every)
    assert seats == sorted(seats)  # seat order
    assert hex_totals(replay(log, collect_facts=True, detail_facts=False).facts) == totals
