"""Replay errors name the event, the seat, the problem and the rule."""

import pytest

from engines.core.errors import IllegalEventError, LogError, MalformedLogError
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


def error(*events: dict) -> LogError:
    with pytest.raises(LogError) as caught:
        replay(log(*events))
    return caught.value


def test_an_event_by_the_wrong_seat_names_whose_turn_it_is():
    assert str(error({"type": "roll", "seat": 1, "dice": [1, 1]})) == (
        "event 0 (seat 2): it is seat 1's turn, not seat 2's: seat 1 must roll the dice [DSA-8]"
    )


def test_a_die_face_the_dice_do_not_have_is_rejected():
    caught = error({"type": "roll", "seat": 0, "dice": [1, 4]})
    assert isinstance(caught, IllegalEventError)
    assert str(caught) == "event 0 (seat 1): die 2 has no face 4 (faces [1, 2, 3]) [DSA-1]"


def test_a_roll_without_dice_is_malformed_not_illegal_dsa_1():
    caught = error({"type": "roll", "seat": 0})
    assert isinstance(caught, MalformedLogError)
    assert str(caught) == (
        "event 0 (seat 1): a roll event needs 'dice' (the 2 faces rolled) [DSA-1]"
    )


def test_a_field_that_belongs_to_another_event_type_fails_the_schema():
    caught = error({"type": "pass", "seat": 0, "chip": 0})
    assert isinstance(caught, MalformedLogError)
    assert caught.field == "events.0.chip"
    assert (caught.index, caught.seat) == (0, 0)


def test_a_log_that_stops_mid_game_says_who_is_next():
    caught = error({"type": "roll", "seat": 0, "dice": [1, 1]})
    assert str(caught) == (
        "event 1 (seat 1): the log ends before the game does: "
        "seat 1 must pick up, drop or leave treasure [DSA-8]"
    )


def test_a_returned_diver_taking_a_turn_is_told_it_is_back_aboard():
    caught = error(
        {"type": "roll", "seat": 0, "dice": [1, 1]},
        {"type": "pick", "seat": 0},
        {"type": "roll", "seat": 1, "dice": [1, 1]},
        {"type": "pick", "seat": 1},
        {"type": "turn", "seat": 0},
        {"type": "roll", "seat": 0, "dice": [2, 2]},
        {"type": "roll", "seat": 0, "dice": [2, 2]},
    )
    assert str(caught) == (
        "event 6 (seat 1): is back in the submarine and takes no more turns this dive [DSA-3]"
    )
