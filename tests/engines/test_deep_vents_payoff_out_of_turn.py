"""DV-8 "at any moment between actions": every seat that may pay off a token is offered it,
not only the seat deciding now (bots, the simulator and the recording page all see it)."""

import random

from deep_vents_support import GAME, ev, new_state

from engines.core.bots import RandomStrategy
from engines.core.simulate import play_out
from engines.deep_vents.bots import GrowerStrategy


def payoffs(actions: list[dict]) -> list[dict]:
    return [action for action in actions if action["type"] == "payoff"]


def test_a_seat_that_is_not_deciding_is_offered_its_payoff_dv_8():
    state = new_state(players=3)
    state.players[2].tokens, state.players[2].supply = 1, 10
    assert state.current_seat() == 0
    assert payoffs(state.legal_actions()) == [{"type": "payoff", "seat": 2}]
    assert state.out_of_turn_actions() == [{"type": "payoff", "seat": 2}]


def test_every_seat_that_may_pay_is_offered_and_the_decider_is_listed_first_dv_8():
    state = new_state(players=3)
    for seat in (0, 1, 2):
        state.players[seat].tokens, state.players[seat].supply = 1, 12
    legal = state.legal_actions()
    assert [event["seat"] for event in payoffs(legal)] == [0, 1, 2]
    assert legal[-2:] == [{"type": "payoff", "seat": 1}, {"type": "payoff", "seat": 2}]


def test_no_payoff_is_offered_without_ten_archaea_or_once_eliminated_dv_8():
    state = new_state(players=3)
    state.players[1].tokens, state.players[1].supply = 1, 9
    state.players[2].tokens, state.players[2].supply = 2, 30
    state.players[2].eliminated_turn = 1
    assert payoffs(state.legal_actions()) == []


def test_an_offered_out_of_turn_payoff_is_accepted_and_leaves_the_decision_waiting_dv_8():
    state = new_state(players=3)
    state.apply_action(ev("take", 0, position=1))
    state.players[1].tokens, state.players[1].supply = 1, 11
    decision = [event for event in state.legal_actions() if event["seat"] == 0]
    (offered,) = payoffs(state.legal_actions())
    state.apply_action(offered)
    assert (state.players[1].tokens, state.players[1].supply) == (0, 1)
    assert state.current_seat() == 0
    assert state.legal_actions() == decision


def test_a_simulated_bot_pays_off_out_of_turn_as_soon_as_it_can_dv_8():
    state = new_state(players=2)
    state.players[1].tokens, state.players[1].supply = 1, 10
    events = play_out(state, [GrowerStrategy(), GrowerStrategy()], random.Random(1))
    assert events[0] == {"type": "payoff", "seat": 1}


def test_the_random_bot_only_ever_chooses_events_of_its_own_seat():
    rng = random.Random(5)
    setup = GAME.new_setup(GAME.ruleset(), 3, rng)
    state = GAME.new_state(GAME.ruleset(), 3, setup)
    seen = []
    bots = [RandomStrategy() for _ in range(3)]

    def remember(state):
        seen.append(state.current_seat())

    deciders = [state.current_seat()]
    events = play_out(state, bots, rng, on_event=remember)
    deciders += seen[:-1]
    assert all(event["seat"] == seat for event, seat in zip(events, deciders, strict=True))
