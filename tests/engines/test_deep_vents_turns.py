"""Placement, activation order, repeated triggers and the game's end (DV-4, DV-6, DV-14)."""

import pytest
from deep_vents_support import ev, lay_out, new_state, plain_turn, start_activation

from engines import IllegalEventError


def test_a_new_hex_must_touch_one_of_your_own_hexes_dv_4():
    state = new_state()
    state.apply_action(ev("take", 0, position=1))
    with pytest.raises(IllegalEventError, match=r"touches none \[DV-4\]"):
        state.apply_action(ev("place", 0, hex=(2, 0)))
    with pytest.raises(IllegalEventError, match=r"already have a hex there: Deep Vent \[DV-4\]"):
        state.apply_action(ev("place", 0, hex=(0, 0)))


def test_the_placed_hex_is_activated_the_same_turn_dv_4():
    state = new_state()
    state.apply_action(ev("take", 0, position=1))
    state.apply_action(ev("place", 0, hex=(0, -1)))
    assert [t.at for t in state.activation] == [(0, -1), (0, 0)]  # r = -1 comes first


def test_activation_order_is_r_then_q_plus_half_r_dv_4():
    state = new_state()
    lay_out(state, 0, [("porous-rock", (1, -1)), ("porous-rock", (-1, 1)), ("porous-rock", (1, 0))])
    lay_out(state, 0, [("porous-rock", (0, 1)), ("porous-rock", (-1, 0))])
    order = [t.at for t in start_activation(state, 0)]
    assert order == [(1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1)]


def test_hexes_out_of_order_are_refused_naming_the_next_one_dv_4():
    state = new_state()
    lay_out(state, 0, [("porous-rock", (1, 0))])
    start_activation(state, 0)
    with pytest.raises(IllegalEventError, match=r"next is Deep Vent \[DV-4\]"):
        state.apply_action(ev("grow", 0, hex=(1, 0)))


def test_a_hex_cannot_grow_after_it_triggered_dv_6():
    state = new_state()
    start_activation(state, 0)
    state.players[0].hexes[(0, 0)].archaea = 3
    state.apply_action(ev("trigger", 0, hex=(0, 0)))
    with pytest.raises(IllegalEventError, match=r"grows or triggers, not both \[DV-6\]"):
        state.apply_action(ev("grow", 0, hex=(0, 0)))


def test_a_hex_is_not_activated_twice():
    state = new_state()
    lay_out(state, 0, [("porous-rock", (1, 0))])
    start_activation(state, 0)
    state.apply_action(ev("grow", 0, hex=(0, 0)))
    with pytest.raises(IllegalEventError, match="already been activated"):
        state.apply_action(ev("grow", 0, hex=(0, 0)))


def test_triggers_repeat_while_affordable_dv_6():
    state = new_state()
    lay_out(state, 0, [("porous-rock", (1, 0))])
    start_activation(state, 0)
    state.players[0].hexes[(1, 0)].archaea = 2
    state.apply_action(ev("grow", 0, hex=(0, 0)))
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    state.apply_action(ev("trigger", 0, hex=(1, 0)))
    with pytest.raises(IllegalEventError, match=r"costs 1 archaea.*has 0.*\[DV-6\]"):
        state.apply_action(ev("trigger", 0, hex=(1, 0)))
    assert state.players[0].shells == 2
    state.apply_action(ev("end", 0))


def test_the_turn_cannot_end_before_every_hex_is_activated_dv_6():
    state = new_state()
    state.apply_action(ev("take", 0, position=1))
    state.apply_action(ev("place", 0, hex=(1, 0)))
    with pytest.raises(IllegalEventError, match=r"has not been activated \[DV-6\]"):
        state.apply_action(ev("end", 0))


def test_legal_actions_offer_grow_and_the_triggers_that_change_something():
    state = new_state()
    start_activation(state, 0)
    assert state.legal_actions() == [ev("grow", 0, hex=(0, 0))]  # nothing to collect
    state.players[0].hexes[(0, 0)].archaea = 1
    assert ev("trigger", 0, hex=(0, 0)) in state.legal_actions()


def test_the_game_ends_after_every_player_has_had_eight_turns_dv_14():
    state = new_state(players=3)
    turns = 0
    while not state.is_terminal():
        plain_turn(state)
        turns += 1
    assert turns == 24
    assert [p.turns for p in state.players] == [8, 8, 8]
    assert all(len(p.hexes) == 9 for p in state.players)
    assert state.outcome().termination == "normal"


def test_nothing_may_happen_after_the_game_is_over():
    state = new_state()
    while not state.is_terminal():
        plain_turn(state)
    assert state.legal_actions() == []
    with pytest.raises(IllegalEventError, match=r"the game is already over \[DV-14\]"):
        state.apply_action(ev("take", 0, position=1))
    with pytest.raises(IllegalEventError, match=r"the game is already over \[DV-14\]"):
        state.apply_action(ev("payoff", 0))
