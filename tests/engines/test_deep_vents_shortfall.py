"""Shortfall tokens, payoff, elimination and ranking (RULINGS DV-7, DV-8, DV-14, DV-16)."""

import pytest
from deep_vents_support import ev, lay_out, new_state, plain_turn

from engines import IllegalEventError
from engines.registry import get_game


def test_any_player_may_pay_off_a_token_at_any_moment_dv_8():
    state = new_state(players=3)
    state.players[2].tokens, state.players[2].supply = 2, 25
    state.apply_action(ev("take", 0, position=1))
    state.apply_action(ev("payoff", 2))  # not seat 2's turn, mid-turn
    assert (state.players[2].tokens, state.players[2].supply) == (1, 15)
    assert state.current_seat() == 0


def test_payoff_needs_a_token_and_ten_archaea_dv_8():
    state = new_state()
    with pytest.raises(IllegalEventError, match=r"no shortfall token.*\[DV-8\]"):
        state.apply_action(ev("payoff", 0))
    state.players[0].tokens, state.players[0].supply = 1, 9
    with pytest.raises(IllegalEventError, match=r"costs 10 archaea, has 9 \[DV-8\]"):
        state.apply_action(ev("payoff", 0))


def test_two_tokens_at_the_end_of_any_turn_eliminate_dv_8():
    state = new_state(players=3)
    state.players[2].tokens = 2
    plain_turn(state)  # seat 0's turn ends: seat 2 is out
    assert state.players[2].eliminated
    assert state.current_seat() == 1
    plain_turn(state)
    assert state.current_seat() == 0  # seat 2 takes no more turns


def test_the_game_names_each_elimination_with_the_turns_the_player_completed_dv_8():
    state = new_state(players=3)
    state.facts = []
    plain_turn(state)  # seat 0's first turn
    state.players[2].tokens = 2
    plain_turn(state)  # seat 1's turn ends: seat 2 is out, none of its turns completed
    state.players[0].tokens = 2
    plain_turn(state)  # seat 0 is out at the end of its own second turn, two completed

    assert get_game("deep-vents").eliminations(state.facts) == [(2, 0), (0, 2)]
    assert get_game("deep-sea-adventure").eliminations(state.facts) == []


def test_one_token_does_not_eliminate():
    state = new_state(players=2)
    state.players[1].tokens = 1
    plain_turn(state)
    assert not state.players[1].eliminated


def test_an_eliminated_player_is_no_longer_attacked_dv_8():
    state = new_state(players=3)
    state.players[2].tokens = 2
    plain_turn(state)
    plain_turn(state)
    lay_out(state, 0, [("giant-squid", (0, -1))])
    state.players[0].hexes[(0, -1)].archaea = 3
    supply = state.players[2].supply
    state.apply_action(ev("take", 0, position=1))
    state.apply_action(ev("place", 0, hex=(-1, 0)))
    state.apply_action(ev("trigger", 0, hex=(0, -1)))
    assert state.players[2].supply == supply
    assert state.players[1].supply < 20


def test_the_game_ends_when_one_player_is_left_dv_14():
    state = new_state(players=2)
    state.players[1].tokens = 2
    plain_turn(state)
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome.termination == "elimination"
    assert outcome.winners == (0,) and outcome.ranks == (1, 2)


def test_an_eliminated_players_score_has_no_hex_term_dv_16():
    state = new_state(players=2)
    state.players[1].tokens, state.players[1].supply, state.players[1].shells = 2, 5, 3
    state.players[1].hexes[(0, 0)].archaea = 9
    plain_turn(state)
    assert state.outcome().scores[1] == 5 + 2 - 20


def test_eliminated_players_rank_below_survivors_later_eliminations_higher_dv_8():
    state = new_state(players=4)
    state.players[3].tokens = 2
    plain_turn(state)  # seat 3 out at game turn 1
    state.players[2].tokens, state.players[2].supply = 2, 90
    plain_turn(state)  # seat 2 out at game turn 2, with a far better score than seat 1
    while not state.is_terminal():
        plain_turn(state)
    assert state.outcome().ranks[2:] == (3, 4)
    assert state.outcome().ranks[:2] in ((1, 2), (2, 1))


def test_same_turn_eliminations_rank_by_score_then_turn_order_dv_16():
    state = new_state(players=4)
    for seat, supply in [(1, 5), (2, 9), (3, 5)]:
        state.players[seat].tokens, state.players[seat].supply = 2, supply
    plain_turn(state)
    outcome = state.outcome()
    assert outcome.termination == "elimination"
    assert outcome.ranks == (1, 3, 2, 4)  # seat 2 scored more; seats 1 and 3 tie: order
