"""The statistics read a Deep Vents game's grows summed per seat and hex type, from the one
`grow-totals` fact its end adds (issue 25: a dict a grow, some 150 a game, was a fifth of
the facts' cost). The totals must be the `grow` facts (detail facts now) summed, on every
kind of game, and come alike with or without the detail facts."""

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


def summed_grows(facts):
    """[seat, hex, grows, archaea] from the grow facts, ordered as the totals are."""
    totals = defaultdict(lambda: [0, 0])
    for fact in facts:
        if fact["type"] == "grow":
            row = totals[(fact["seat"], fact["hex"])]
            row[0] += 1
            row[1] += fact["archaea"]
    return sorted([seat, hex_id, *row] for (seat, hex_id), row in totals.items())


def grow_totals(facts):
    (fact,) = [fact for fact in facts if fact["type"] == "grow-totals"]
    return fact


def test_a_worked_example_sums_each_seats_grows_per_hex_type():
    # Two Gulper Eels' or two Yeti Crabs' grows count on one line: per type, not per hex.
    log = json.loads((GOLDEN / "four-players-decimations-and-payoff.json").read_text())
    facts = replay(log, collect_facts=True).facts
    totals = grow_totals(facts)

    assert facts[-1] is totals  # once, last: at the game's end
    assert totals["game_turn"] == max(fact["game_turn"] for fact in facts)
    assert sorted(totals["hexes"]) == summed_grows(facts)
    assert all(grows >= 1 for _, _, grows, _ in totals["hexes"])


@pytest.mark.parametrize("name", sorted(path.name for path in GOLDEN.glob("*.json")))
def test_every_golden_replay_has_totals_equal_to_its_grows(name):
    log = json.loads((GOLDEN / name).read_text())
    every = replay(log, collect_facts=True).facts
    lean = replay(log, collect_facts=True, detail_facts=False).facts

    assert sorted(grow_totals(every)["hexes"]) == summed_grows(every)
    assert grow_totals(lean) == grow_totals(every)
    assert not any(fact["type"] == "grow" for fact in lean)  # a detail fact now


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 4), st.sampled_from(sorted(GAME.rulesets())), st.integers(0, 10**6))
def test_totals_equal_the_grows_summed_on_random_bot_games(players, ruleset, seed):
    (log,) = simulate(GAME, GAME.rulesets()[ruleset], players, 1, f"grow-totals-{seed}")
    every = replay(log, collect_facts=True).facts
    totals = grow_totals(every)
    seats = [seat for seat, *_ in totals["hexes"]]

    assert sorted(totals["hexes"]) == summed_grows(every)
    assert seats == sorted(seats)  # seat order
    assert grow_totals(replay(log, collect_facts=True, detail_facts=False).facts) == totals
