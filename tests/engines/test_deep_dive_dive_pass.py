"""Dive passes: rolling the colour die and drawing shells (DD-2)."""

import pytest
from deep_dive_support import play

from engines import IllegalEventError, replay
from engines.core.schema import FORMAT
from engines.deep_dive.events import dive, shark, stay, surface
from engines.deep_dive.events import open_shells as opened


def test_diver_draws_as_many_shells_as_its_section_shows_dd2():
    state = play(2, dive(0, "blue"), dive(1, "red"))
    assert state.held == [3, 1]
    assert state.pool == 38 - 4
    sections = {s["colour"]: s["divers"] for s in state.snapshot()["sections"]}
    assert sections["blue"] == [0] and sections["red"] == [1]


def test_shark_follows_once_every_diver_has_dived_dd2():
    state = play(3, dive(0, "red"), dive(1, "red"))
    assert state.current_seat() == 2
    state.apply_action(dive(2, "green"))
    assert [e["type"] for e in state.legal_actions()] == ["shark"] * 6
    assert state.current_seat() == 0


def test_later_passes_are_dived_only_by_divers_still_in_the_water_dd2():
    state = play(
        3,
        dive(0, "red"), dive(1, "blue"), dive(2, "green"),
        shark(0, "blue"),  # seat 1 is scared away
        surface(0), opened(0, 1, 0, 0),
        stay(2),
    )  # fmt: skip
    assert state.current_seat() == 2
    assert state.snapshot()["pass"] == 2
    with pytest.raises(IllegalEventError, match="seat 3 must roll the colour die"):
        state.apply_action(dive(1, "red"))


def test_diver_who_stays_keeps_its_shells_and_moves_to_the_new_section_dd2():
    state = play(2, dive(0, "red"), dive(1, "red"), shark(0, "blue"), stay(0), stay(1))
    state.apply_action(dive(0, "purple"))
    assert state.held[0] == 4
    assert state.snapshot()["divers"][0]["section"] == "purple"


def test_draw_is_short_when_the_pool_runs_low_dd2():
    # 3 players: 43 shells; four passes of three purple dives leave 7.
    passes = [dive(s, "purple") for s in range(3)] + [shark(0, "red")] + [stay(s) for s in range(3)]
    state = play(3, *passes * 4, dive(0, "purple"), dive(1, "purple"))
    assert state.pool == 1
    state.apply_action(dive(2, "blue"))
    assert state.held == [15, 15, 13]  # seat 2 drew one shell, not three
    assert state.pool == 0


def test_colour_that_is_not_on_the_die_is_rejected_with_its_index_dd2():
    log = {
        "format": FORMAT,
        "game": "deep-dive",
        "players": [{"name": "Ann"}, {"name": "Bob"}],
        "setup": {},
        "events": [dive(0, "blue"), dive(1, "black")],
    }
    with pytest.raises(IllegalEventError) as caught:
        replay(log)
    assert str(caught.value) == (
        "event 1 (seat 2): 'black' is not a face of the colour die "
        "(red, orange, yellow, green, blue, purple) [DD-2]"
    )


def test_diving_out_of_turn_is_rejected_naming_the_expected_seat_dd2():
    state = play(3, dive(0, "blue"))
    with pytest.raises(IllegalEventError) as caught:
        state.apply_action(dive(2, "blue"))
    assert caught.value.rule == "DD-2"
    assert "seat 2 must roll the colour die" in caught.value.message
