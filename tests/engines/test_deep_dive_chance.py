"""Chance nodes: the dice and the contents of opened shells (DD-1, DD-4)."""

import copy
from math import isclose

from deep_dive_support import play

from engines.deep_dive.events import dive, shark, stay, surface


def test_colour_die_has_six_equally_likely_faces_dd1():
    outcomes = play(2).chance_outcomes()
    assert [event["colour"] for event, _ in outcomes] == [
        "red", "orange", "yellow", "green", "blue", "purple",
    ]  # fmt: skip
    assert all(isclose(p, 1 / 6) for _, p in outcomes)


def test_opening_odds_follow_the_unopened_shells_dd4():
    # 2 players: 20 white, 6 black, 12 empty unopened; seat 0 opens 1 shell.
    state = play(2, dive(0, "red"), dive(1, "red"), shark(0, "blue"), surface(0))
    odds = {(e["white"], e["black"], e["empty"]): p for e, p in state.chance_outcomes()}
    assert odds.keys() == {(1, 0, 0), (0, 1, 0), (0, 0, 1)}
    assert isclose(odds[(1, 0, 0)], 20 / 38)
    assert isclose(odds[(0, 1, 0)], 6 / 38)


def test_opening_three_shells_lists_every_split_with_hypergeometric_odds_dd4():
    state = play(2, dive(0, "blue"), dive(1, "red"), shark(0, "green"), surface(0))
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 10  # the splits of 3 shells into 3 kinds
    assert isclose(sum(p for _, p in outcomes), 1.0)
    odds = {(e["white"], e["black"], e["empty"]): p for e, p in outcomes}
    assert isclose(odds[(0, 3, 0)], (6 * 5 * 4) / (38 * 37 * 36))


def test_every_listed_chance_outcome_is_accepted_dd4():
    state = play(3, dive(0, "purple"), dive(1, "purple"), dive(2, "blue"), shark(0, "red"), stay(0))
    state.apply_action(surface(1))
    for event, _ in state.chance_outcomes():
        copy.deepcopy(state).apply_action(event)


def test_shark_outcomes_are_rolled_by_the_starting_seat_dd3():
    state = play(2, dive(0, "blue"), dive(1, "red"))
    events = [event for event, _ in state.chance_outcomes()]
    assert {(e["type"], e["seat"]) for e in events} == {("shark", 0)}
    assert len(events) == 6
