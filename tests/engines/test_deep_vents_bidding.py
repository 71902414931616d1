"""The starting bid (RULINGS DV-3) and the standard starting archaea."""

import pytest
from deep_vents_support import GAME, ev, full_stack, new_state

from engines import IllegalEventError, MalformedLogError


def bidding(players=4, opener=1):
    return new_state(players=players, ruleset="starting-bid", opening_bidder=opener)


def test_the_opening_bidder_must_bid_and_may_bid_zero():
    state = bidding(opener=1)
    with pytest.raises(IllegalEventError, match=r"must bid \(0 is allowed\) \[DV-3\]"):
        state.apply_action(ev("pass", 1))
    state.apply_action(ev("bid", 1, amount=0))
    assert state.current_seat() == 2


def test_the_opener_wins_at_zero_when_everyone_passes():
    state = bidding(opener=1)
    for event in [ev("bid", 1, amount=0), ev("pass", 2), ev("pass", 3), ev("pass", 0)]:
        state.apply_action(event)
    assert state.order == [1, 2, 3, 0]
    assert [state.players[s].supply for s in state.order] == [20, 21, 22, 23]
    assert state.phase == "take" and state.current_seat() == 1


def test_each_bid_must_beat_the_last_by_at_least_one():
    state = bidding(opener=0)
    state.apply_action(ev("bid", 0, amount=3))
    with pytest.raises(IllegalEventError, match=r"at least 4 \[DV-3\]"):
        state.apply_action(ev("bid", 1, amount=3))


def test_no_bid_may_exceed_the_base_archaea():
    state = bidding(players=2, opener=0)
    with pytest.raises(IllegalEventError, match=r"exceeds the 10 archaea.*\[DV-3\]"):
        state.apply_action(ev("bid", 0, amount=11))


def test_a_pass_is_final_and_bidding_goes_round_until_one_bidder_remains():
    state = bidding(opener=0)
    state.apply_action(ev("bid", 0, amount=1))
    state.apply_action(ev("pass", 1))
    state.apply_action(ev("bid", 2, amount=2))
    state.apply_action(ev("pass", 3))
    assert state.current_seat() == 0  # seat 1 passed for good
    state.apply_action(ev("bid", 0, amount=4))
    assert state.current_seat() == 2
    state.apply_action(ev("pass", 2))
    # Winner seat 0 pays 4; order runs clockwise from the winner with +1/+2/+3.
    assert state.order == [0, 1, 2, 3]
    assert [p.supply for p in state.players] == [20 - 4, 21, 22, 23]


def test_turn_order_runs_clockwise_from_the_winner():
    state = bidding(players=3, opener=0)
    for event in [ev("bid", 0, amount=0), ev("bid", 1, amount=2), ev("pass", 2), ev("pass", 0)]:
        state.apply_action(event)
    assert state.order == [1, 2, 0]
    assert [p.supply for p in state.players] == [15 + 2, 15 - 2, 15 + 1]


def test_bids_are_refused_out_of_turn_and_after_bidding():
    state = bidding(players=2, opener=1)
    with pytest.raises(IllegalEventError, match=r"seat 2 must open the bidding \[DV-3\]"):
        state.apply_action(ev("bid", 0, amount=0))
    state.apply_action(ev("bid", 1, amount=0))
    state.apply_action(ev("pass", 0))
    with pytest.raises(
        IllegalEventError,
        match=r"seat 2 must take a hex from the row first; a bid cannot come now \[DV-2\]",
    ):
        state.apply_action(ev("bid", 0, amount=5))


def test_the_bids_are_in_the_snapshot():
    state = bidding(players=2, opener=1)
    state.apply_action(ev("bid", 1, amount=2))
    state.apply_action(ev("pass", 0))
    assert state.snapshot()["bids"] == [{"seat": 1, "amount": 2}, {"seat": 0, "pass": True}]


@pytest.mark.parametrize(
    ("players", "first", "supplies"),
    [(2, 1, [11, 10]), (3, 0, [15, 16, 17]), (4, 2, [22, 23, 20, 21])],
)
def test_standard_ruleset_uses_the_rulebook_table_by_turn_order(players, first, supplies):
    state = new_state(players=players, first_player=first)
    assert [p.supply for p in state.players] == supplies
    assert state.current_seat() == first


def test_standard_ruleset_first_player_defaults_to_seat_zero():
    assert new_state(players=2).current_seat() == 0


def test_the_starting_bid_setup_needs_the_opening_bidder():
    rules = GAME.ruleset({"name": "starting-bid"})
    with pytest.raises(MalformedLogError, match=r"setup.opening_bidder.*\[DV-3\]"):
        GAME.new_state(rules, 2, {"stack": full_stack()})
    with pytest.raises(MalformedLogError, match=r"setup.first_player.*\[DV-3\]"):
        GAME.new_state(rules, 2, {"stack": full_stack(), "opening_bidder": 0, "first_player": 0})


def test_the_standard_setup_refuses_an_opening_bidder():
    with pytest.raises(MalformedLogError, match="no bidding"):
        new_state(players=2, opening_bidder=0)


def test_an_opening_bidder_outside_the_table_is_malformed():
    with pytest.raises(MalformedLogError, match="no seat 3 at a table of 2"):
        new_state(players=2, ruleset="starting-bid", opening_bidder=3)


def test_the_seat_summary_gives_turn_order_and_each_seats_highest_bid():
    state = bidding(players=3, opener=0)
    for event in [ev("bid", 0, amount=0), ev("bid", 1, amount=2), ev("pass", 2)]:
        state.apply_action(event)
    state.apply_action(ev("bid", 0, amount=3))
    state.apply_action(ev("pass", 1))

    assert GAME.seat_summary(state) == {
        0: {"turn": 1, "bid": 3},
        1: {"turn": 2, "bid": 2},
        2: {"turn": 3},
    }
    assert [column.label for column in GAME.seat_columns] == ["Turn order", "Bid"]
