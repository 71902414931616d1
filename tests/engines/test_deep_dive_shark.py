"""The shark: who it scares away and what they lose (DD-3)."""

import pytest
from deep_dive_support import play as play_with_facts

from engines import IllegalEventError
from engines.deep_dive.events import dive, shark, stay, surface
from engines.deep_dive.events import open_shells as opened


def play(players, *events):
    return play_with_facts(players, *events, facts=True)


def test_shark_returns_unopened_shells_of_every_diver_in_its_section_dd3():
    state = play(3, dive(0, "blue"), dive(1, "blue"), dive(2, "red"), shark(0, "blue"))
    assert state.held == [0, 0, 1]
    assert state.pool == 43 - 1
    assert state.divers_in_water() == [2]
    assert state.facts[-1]["hits"] == [{"seat": 0, "shells_lost": 3}, {"seat": 1, "shells_lost": 3}]
    assert state.current_seat() == 2  # the only diver left decides


def test_shark_in_an_empty_section_scares_nobody_dd3():
    state = play(2, dive(0, "blue"), dive(1, "red"), shark(0, "green"))
    assert state.held == [3, 1]
    assert state.divers_in_water() == [0, 1]
    assert state.facts[-1]["hits"] == []


def test_shark_hit_keeps_the_pearls_already_opened_dd3():
    state = play(
        2,
        dive(0, "purple"), dive(1, "red"), shark(0, "green"),
        surface(0), opened(0, 2, 0, 1), stay(1),
        dive(1, "yellow"), shark(0, "red"), stay(1),
        dive(1, "purple"),
    )  # fmt: skip
    state.apply_action(shark(0, "purple"))
    assert state.white_pearls == [2, 0]
    assert state.held == [0, 0]
    assert state.pool == 38 - 3  # the three opened shells never return


def test_returned_shells_rejoin_the_pool_unknown_dd3():
    state = play(2, dive(0, "blue"), dive(1, "red"))
    unopened_before = dict(state.unopened)
    state.apply_action(shark(0, "blue"))
    assert state.unopened == unopened_before
    assert state.snapshot()["pool"] == {"shells": 37, "unopened": unopened_before}


def test_starting_player_rolls_the_shark_even_when_out_of_the_water_dd3():
    state = play(
        2,
        dive(0, "red"), dive(1, "blue"), shark(0, "green"),
        surface(0), opened(0, 1, 0, 0), stay(1),
        dive(1, "yellow"),
    )  # fmt: skip
    assert state.current_seat() == 0
    with pytest.raises(IllegalEventError) as caught:
        state.apply_action(shark(1, "yellow"))
    assert caught.value.rule == "DD-3"
    assert "seat 1 must roll the shark die" in caught.value.message
    state.apply_action(shark(0, "yellow"))
    assert state.held == [0, 0]


def test_shark_face_that_is_not_on_the_die_is_rejected_dd3():
    state = play(2, dive(0, "red"), dive(1, "blue"))
    with pytest.raises(IllegalEventError, match="not a face of the shark die") as caught:
        state.apply_action(shark(0, "white"))
    assert caught.value.rule == "DD-3"
