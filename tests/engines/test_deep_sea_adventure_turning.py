"""DSA-4: turning back only with treasure, only once per dive, only before rolling."""

import pytest
from deep_sea_adventure_support import new_game

from engines.core.errors import IllegalEventError
from engines.core.replay import replay
from engines.core.schema import FORMAT
from engines.deep_sea_adventure.game import DeepSeaAdventure

GAME = DeepSeaAdventure()
CHIPS = [value for level in GAME.editions()["first"].levels for value in level]


def log(*events: dict) -> dict:
    return {
        "format": FORMAT,
        "game": GAME.id,
        "players": [{"name": "Ann"}, {"name": "Bo"}],
        "setup": {"chips": CHIPS},
        "events": list(events),
    }


def test_turning_back_while_carrying_no_treasure_is_rejected_with_index_seat_and_ruling():
    with pytest.raises(IllegalEventError) as caught:
        replay(log({"type": "turn", "seat": 0}))
    assert str(caught.value) == (
        "event 0 (seat 1): cannot turn back while carrying no treasure [DSA-4]"
    )


def test_a_diver_turns_back_only_once_per_dive():
    state = new_game()
    state.carried[0] = [((1, 0),)]
    state.position = [5, 0]
    state.apply_action({"type": "turn", "seat": 0})
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})
    state.apply_action({"type": "pass", "seat": 0})
    state.apply_action({"type": "roll", "seat": 1, "dice": [1, 1]})
    state.apply_action({"type": "pass", "seat": 1})
    with pytest.raises(IllegalEventError, match=r"already turned back this dive \[DSA-4\]"):
        state.apply_action({"type": "turn", "seat": 0})


def test_turning_back_after_rolling_is_rejected():
    state = new_game()
    state.carried[0] = [((1, 0),)]
    state.position = [5, 0]
    state.apply_action({"type": "swim", "seat": 0})
    state.apply_action({"type": "roll", "seat": 0, "dice": [3, 3]})
    with pytest.raises(
        IllegalEventError,
        match=r"declared before rolling; seat 1 must pick up, drop or leave treasure now \[DSA-4\]",
    ):
        state.apply_action({"type": "turn", "seat": 0})


def test_turning_back_after_choosing_to_swim_on_is_rejected():
    state = new_game()
    state.carried[0] = [((1, 0),)]
    state.apply_action({"type": "swim", "seat": 0})
    with pytest.raises(IllegalEventError, match=r"already chose to swim on \[DSA-4\]"):
        state.apply_action({"type": "turn", "seat": 0})


def test_a_diver_who_may_turn_is_a_decision_and_rolling_straight_away_means_diving_on():
    state = new_game()
    state.carried[0] = [((1, 0),)]
    state.position = [5, 0]
    assert not state.is_chance_node()
    assert {event["type"] for event in state.legal_actions()} == {"turn", "swim"}
    state.apply_action({"type": "roll", "seat": 0, "dice": [2, 2]})
    assert state.position[0] == 8
    assert not state.turned[0]


def test_a_diver_without_treasure_has_nothing_to_declare_so_the_next_event_is_the_roll():
    state = new_game()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sum(chance for _, chance in outcomes) == pytest.approx(1)
    assert {tuple(event["dice"]) for event, _ in outcomes} == {
        (a, b) for a in (1, 2, 3) for b in (1, 2, 3)
    }
