"""The row of six, skip payments and the forced left-most pick (RULINGS DV-2, DV-8, DV-16)."""

import pytest
from deep_vents_support import ev, full_stack, new_state, plain_turn

from engines import IllegalEventError, MalformedLogError


def row_ids(state):
    return [kind.id for kind in state.row]


def test_the_row_offers_the_top_six_of_the_stack_dv_2():
    stack = full_stack()
    state = new_state(stack=stack)
    assert row_ids(state) == stack[:6]


def test_row_size_five_leaves_the_stack_top_out_dv_2():
    stack = full_stack()
    state = new_state(stack=stack, options={"row_size": 5})
    assert row_ids(state) == stack[:5]
    with pytest.raises(IllegalEventError, match=r"position must be 1 to 5.*\[DV-2\]"):
        state.apply_action(ev("take", 0, position=6))


def test_skipping_pays_one_archaeon_onto_each_skipped_hex_and_the_row_slides_dv_2():
    stack = full_stack()
    state = new_state(stack=stack)
    supply = state.players[0].supply
    state.apply_action(ev("take", 0, position=4))
    assert state.players[0].supply == supply - 3
    assert row_ids(state) == [*stack[:3], *stack[4:7]]
    assert state.row_archaea == [1, 1, 1, 0, 0, 0]
    assert state.taken[0].id == stack[3]


def test_archaea_on_a_skipped_hex_travel_with_it_when_taken():
    state = new_state()
    plain_turn(state, position=3)  # seat 0 pays 1 onto positions 1 and 2
    state.apply_action(ev("take", 1, position=2))
    assert state.taken[1] == 1  # seat 0's payment rides along
    assert state.row_archaea[0] == 2  # seat 0's and seat 1's payments
    state.apply_action(ev("place", 1, hex=(1, 0)))
    assert state.players[1].hexes[(1, 0)].archaea == 1


def test_a_position_the_player_cannot_pay_for_is_refused_dv_2():
    state = new_state()
    state.players[0].supply = 1
    with pytest.raises(IllegalEventError) as caught:
        state.apply_action(ev("take", 0, position=4))
    assert str(caught.value) == "cannot take position 4: needs 3 archaea, has 1 [DV-2]"


def test_a_skip_payment_onto_a_full_hex_is_paid_and_lost_dv_16():
    state = new_state()
    state.row_archaea[0] = 10
    supply = state.players[0].supply
    state.apply_action(ev("take", 0, position=3))
    assert state.players[0].supply == supply - 2
    assert state.row_archaea[:2] == [10, 1]


def test_a_shortfall_token_forces_the_left_most_hex_dv_8():
    state = new_state()
    state.players[0].tokens = 1
    with pytest.raises(IllegalEventError, match=r"must take position 1 \[DV-8\]"):
        state.apply_action(ev("take", 0, position=2))
    assert [e["position"] for e in state.legal_actions() if e["type"] == "take"] == [1]


def test_paying_off_the_token_first_frees_the_choice_dv_8():
    state = new_state()
    state.players[0].tokens, state.players[0].supply = 1, 15
    state.apply_action(ev("payoff", 0))
    state.apply_action(ev("take", 0, position=2))
    assert state.players[0].tokens == 0


def test_a_hand_recorded_stack_may_stop_at_the_last_hex_revealed():
    stack = full_stack()[:7]
    state = new_state(stack=stack)
    plain_turn(state)  # reveals the 7th hex
    plain_turn(state)  # the row can no longer be refilled
    with pytest.raises(MalformedLogError, match=r"setup.stack lists only 7 hexes.*\[DV-2\]"):
        state.apply_action(ev("take", 0, position=1))


def test_a_stack_with_more_copies_than_the_edition_is_malformed_dv_1():
    with pytest.raises(MalformedLogError, match=r"3 yeti-crab hexes; the game has 2 \[DV-1\]"):
        new_state(stack=["yeti-crab"] * 3 + full_stack()[:5])


def test_a_deep_vent_in_the_stack_is_malformed_dv_1():
    with pytest.raises(MalformedLogError, match="not a hex of the shuffled stack"):
        new_state(stack=["deep-vent", *full_stack()[:6]])
