"""The end of the game and the winners (DD-5)."""

import json
from pathlib import Path

import pytest
from deep_dive_support import play

from engines import IllegalEventError, replay
from engines.deep_dive.events import dive, shark, stay, surface
from engines.deep_dive.events import open_shells as opened

EXAMPLE = Path(__file__).parent / "golden/deep-dive/docs-example-tie.json"


def test_fourth_black_pearl_ends_the_game_after_the_surfacing_step_dd5():
    state = play(
        3,
        dive(0, "purple"), dive(1, "purple"), dive(2, "purple"), shark(0, "red"),
        surface(0), opened(0, 0, 3, 0),
        surface(1), opened(1, 2, 1, 0),  # the 4th black pearl
    )  # fmt: skip
    assert not state.is_terminal()
    assert state.snapshot()["game_ending"]
    assert state.legal_actions() == [surface(2), stay(2)]  # the step goes on
    state.apply_action(stay(2))
    # no shark, no further dive: seat 2 must open now
    assert state.is_chance_node() and state.current_seat() == 2
    assert {e["type"] for e in state.legal_actions()} == {"open"}
    state.apply_action(opened(2, 3, 0, 0))
    assert state.is_terminal()
    assert state.outcome().scores == (0, 2, 3)
    assert state.outcome().winners == (2,)


def test_three_black_pearls_do_not_end_the_game_dd5():
    state = play(
        2,
        dive(0, "purple"), dive(1, "red"), shark(0, "green"),
        surface(0), opened(0, 0, 3, 0), surface(1), opened(1, 1, 0, 0),
    )  # fmt: skip
    assert not state.is_terminal()
    assert state.snapshot()["round"] == 2


def test_empty_pool_ends_the_game_at_the_end_of_that_turn_dd5():
    # 3 players: 43 shells; after four passes of purple dives 7 are left.
    one_pass = [dive(s, "purple") for s in range(3)] + [shark(0, "red")]
    one_pass += [stay(s) for s in range(3)]
    state = play(3, *one_pass * 4, dive(0, "purple"), dive(1, "purple"), dive(2, "blue"))
    assert state.pool == 0
    # no shark: every diver still in the water opens, from the starting player
    assert [state.current_seat(), state.is_chance_node()] == [0, True]
    state.apply_action(opened(0, 10, 2, 3))
    assert state.current_seat() == 1
    state.apply_action(opened(1, 5, 3, 7))
    state.apply_action(opened(2, 10, 1, 2))
    assert state.is_terminal()
    assert state.outcome().winners == (0, 2)
    assert state.unopened == {"white": 0, "black": 0, "empty": 0}


def test_empty_pool_ends_the_game_before_the_remaining_divers_roll_dd5():
    # 2 players: six passes of purple dives leave 2 of the 38 shells.
    one_pass = [dive(0, "purple"), dive(1, "purple"), shark(0, "red"), stay(0), stay(1)]
    state = play(2, *one_pass * 6)
    assert state.pool == 2
    state.apply_action(dive(0, "blue"))
    assert state.held == [20, 18]
    assert state.current_seat() == 0 and state.is_chance_node()  # seat 1 does not roll
    state.apply_action(opened(0, 10, 3, 7))
    state.apply_action(opened(1, 10, 3, 5))
    assert state.outcome().scores == (10, 10)


def test_tied_players_all_win_and_share_the_rank_dd5():
    outcome = replay(json.loads(EXAMPLE.read_text())).outcome
    assert outcome.scores == (2, 2)
    assert outcome.winners == (0, 1)
    assert outcome.ranks == (1, 1)


def test_ranks_follow_white_pearls_with_shared_places_dd5():
    state = play(
        4,
        dive(0, "purple"), dive(1, "purple"), dive(2, "purple"), dive(3, "red"),
        shark(0, "green"),
        surface(0), opened(0, 1, 2, 0), surface(1), opened(1, 1, 2, 0),
        surface(2), opened(2, 3, 0, 0), surface(3), opened(3, 0, 0, 1),
    )  # fmt: skip
    assert state.outcome().ranks == (2, 2, 1, 4)


def test_event_after_the_end_is_rejected_dd5():
    log = json.loads(EXAMPLE.read_text())
    log["events"].append(dive(0, "red"))
    with pytest.raises(IllegalEventError) as caught:
        replay(log)
    assert str(caught.value) == (
        "event 20 (seat 1): the game is already over; nothing may follow its end [DD-5]"
    )


def test_log_that_stops_before_the_end_is_rejected_dd5():
    log = json.loads(EXAMPLE.read_text())
    del log["events"][-1]
    with pytest.raises(IllegalEventError, match="the log ends before the game does"):
        replay(log)
