"""The Monte Carlo evaluator (engines/analysis): positions with a known best choice, exact
terminal values, reproducibility, resampled hidden information."""

import random

import pytest
from deep_vents_support import ev, lay_out, new_state

from engines.analysis import Budget, analyse_log, decision_points, evaluate_position
from engines.analysis.evaluator import seat_actions, win_shares
from engines.core.simulate import simulate_game
from engines.registry import get_game

SMALL = Budget(target_se=0.05, min_playouts=24, max_playouts=64, batch=8)
DSA = get_game("deep-sea-adventure")


def dsa_state(players: int = 2):
    ruleset = DSA.ruleset({})
    return DSA.new_state(ruleset, players, DSA.new_setup(ruleset, players, random.Random(7)))


def last_dive_treasure_step(air: int):
    """Dive 3; seat 1 is back aboard empty-handed; seat 0 is heading home one step from the
    submarine carrying a level-3 chip, standing on a treasure chip (its treasure step)."""
    state = dsa_state()
    state.dive = 3
    state.returned[1] = True
    state.return_order = [1]
    state.turned[0] = True
    state.carried[0] = [state.path[20]]
    state.path[20] = None
    state.position[0] = 1
    state.air = air
    state.last_turn = air == 0
    state.stage = "treasure"
    state.seat = 0
    return state


def test_a_diver_one_step_from_the_submarine_with_air_1_does_not_pick_up():
    state = last_dive_treasure_step(air=1)
    actions = seat_actions(state, 0)
    assert {a["type"] for a in actions} == {"pick", "pass"}
    estimates = evaluate_position("deep-sea-adventure", state, 0, actions, 2, budget=SMALL)
    # Passing gets home on any roll; carrying two chips, a roll of 2 leaves the diver stuck
    # and drowned (a 1 in 9 chance), tying 0-0.
    assert estimates[0].action["type"] == "pass"
    assert estimates[0].win == 1.0
    assert estimates[1].win < 1.0


def test_a_deep_vents_trigger_that_eliminates_the_last_opponent_ranks_first_dv_8():
    state = new_state(players=2)
    lay_out(state, 0, [("giant-squid", (0, -1))])
    state.players[0].hexes[(0, -1)].archaea = 3
    state.players[0].supply = 0
    opponent = state.players[1]
    opponent.tokens, opponent.supply = 1, 3  # the squid's damage is a second token (DV-7)
    far_ahead = [("giant-squid", at) for at in ((0, -1), (1, -1), (1, 0), (0, 1))]
    for tile in lay_out(state, 1, far_ahead).values():
        tile.archaea = 10  # the opponent is far ahead on points otherwise
    state.apply_action(ev("take", 0, position=1))
    state.apply_action(ev("place", 0, hex=(-1, 0)))
    squid = ev("trigger", 0, hex=(0, -1))
    while squid not in state.legal_actions():
        state.apply_action(next(a for a in state.legal_actions() if a["type"] == "grow"))
    actions = seat_actions(state, 0)
    estimates = evaluate_position("deep-vents", state, 0, actions, 2, budget=SMALL)
    assert estimates[0].action == squid
    assert estimates[0].win == 1.0
    assert estimates[-1].win < 0.5


def test_every_action_that_ends_the_game_is_valued_exactly():
    state = last_dive_treasure_step(air=0)  # the last turn: the dive ends after this step
    state.banked[0] = [(3, 10)]  # drowning or not, seat 0 wins 10 to 0
    actions = seat_actions(state, 0)
    estimates = evaluate_position("deep-sea-adventure", state, 0, actions, 2, budget=SMALL)
    for estimate in estimates:
        assert estimate.playouts == SMALL.min_playouts  # certain: no more playouts needed
        assert estimate.shares == [1.0, 0.0]


def test_a_tied_finished_game_shares_the_win_equally_dsa_7():
    state = dsa_state(players=3)
    state.banked = [[(2, 5)], [(2, 5)], [(1, 1)]]
    state.stage = "over"
    assert win_shares(state, 3) == [0.5, 0.5, 0.0]
    with pytest.raises(ValueError, match="finished game"):
        evaluate_position("deep-sea-adventure", state, 0, [], 3)


def simulated(game_id: str, strategies: list[str], seed: int = 2) -> dict:
    game = get_game(game_id)
    return simulate_game(game, game.ruleset({}), strategies, random.Random(seed))


def test_an_analysis_is_reproducible_for_a_seed_and_independent_of_chunking():
    log = simulated("deep-sea-adventure", ["grab-2-then-turn", "air-aware"])
    indices = [point.index for point in decision_points(log)][:6]
    whole = analyse_log(log, budget=SMALL, seed="s", indices=set(indices))
    again = analyse_log(log, budget=SMALL, seed="s", indices=set(indices[3:]))
    assert [d.to_json() for d in whole[3:]] == [d.to_json() for d in again]
    other_seed = analyse_log(log, budget=SMALL, seed="t", indices=set(indices))
    assert [d.to_json() for d in whole] != [d.to_json() for d in other_seed]


def test_every_estimate_reaches_the_target_error_or_the_playout_cap():
    log = simulated("deep-dive", ["risk-aware", "surface-after-2"])
    for decision in analyse_log(log, budget=SMALL, seed="1"):
        for estimate in decision.estimates:
            assert estimate.se <= SMALL.target_se or estimate.playouts == SMALL.max_playouts
        assert decision.estimates[0].win == max(e.win for e in decision.estimates)
        assert decision.cost == pytest.approx(decision.best.win - decision.played_estimate.win)


def test_decision_points_skip_chance_events_and_forced_moves():
    log = simulated("deep-sea-adventure", ["grab-2-then-turn", "air-aware"])
    points = list(decision_points(log))
    assert points
    for point in points:
        assert len(point.actions) > 1
        assert point.played in point.actions
        assert log["events"][point.index]["type"] not in ("roll",)


def test_resampling_a_dive_keeps_what_the_diver_holds_and_every_level_multiset():
    state = dsa_state(players=3)
    state.carried[0] = [state.path[3]]
    state.carried[1] = [state.path[10]]
    state.path[3] = state.path[10] = None

    def by_level(s):
        chips = [chip for item in s.path if item for chip in item]
        chips += [chip for seat in range(3) for item in s.carried[seat] for chip in item]
        return sorted(chips)

    before = list(state.path)
    seen = set()
    for seed in range(20):
        copy = DSA.resample(state, 0, random.Random(seed))
        assert copy.carried[0] == state.carried[0]  # the diver knows its own chips
        assert by_level(copy) == by_level(state)
        seen.add(tuple(copy.path))
    assert len(seen) > 1
    assert state.path == before  # the position itself is left alone


def test_resampling_deep_vents_keeps_the_row_and_the_stack_top_dv_2():
    state = new_state(players=2)
    revealed = state.stack[: state.next_in_stack]
    orders = set()
    for seed in range(5):
        copy = get_game("deep-vents").resample(state, 0, random.Random(seed))
        assert copy.stack[: state.next_in_stack] == revealed
        assert sorted(k.id for k in copy.stack) == sorted(k.id for k in state.stack)
        orders.add(tuple(k.id for k in copy.stack))
    assert len(orders) > 1


def test_a_sure_call_that_is_not_exact_stands_on_the_sure_playouts():
    """Passing home with air 1 wins every playout, but dice still fall after it: a win
    probability above 0.98 is kept only after `sure_playouts` playouts (issue 24)."""
    state = last_dive_treasure_step(air=1)
    budget = Budget(target_se=0.05, min_playouts=16, max_playouts=400, batch=8, sure_playouts=96)
    estimates = evaluate_position(
        "deep-sea-adventure", state, 0, seat_actions(state, 0), 2, budget=budget
    )
    passing = next(e for e in estimates if e.action["type"] == "pass")
    assert passing.win == 1.0 and not passing.exact
    assert passing.playouts == budget.sure_playouts
