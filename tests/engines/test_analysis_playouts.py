"""Analysis playouts: the mixed playout bots play legal events only, stand in for a table of
different players, and never see what the deciding seat cannot (Game.resample)."""

import ast
import random
from pathlib import Path

import pytest
from deep_vents_support import new_state

from engines.analysis import Budget, decision_points, evaluate_position
from engines.analysis.evaluator import seat_actions
from engines.core.bots import MixedStrategy, mixed_strategy
from engines.core.simulate import play_out, simulate_game
from engines.registry import GAMES, get_game

SMALL = Budget(target_se=0.1, min_playouts=16, max_playouts=16, batch=16)
ENGINES = Path(__file__).resolve().parents[2] / "engines"


def fresh_state(game_id: str, players: int = 4, seed: int = 3):
    game = get_game(game_id)
    ruleset = game.ruleset({})
    return game.new_state(ruleset, players, game.new_setup(ruleset, players, random.Random(seed)))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_playout_bots_choose_only_legal_events_to_the_end_of_a_game(game_id):
    game = get_game(game_id)
    playout = game.playout_strategy()
    chosen = []

    class Watched(playout):
        def choose(self, state, legal, rng):
            event = super().choose(state, legal, rng)
            chosen.append(event in legal)
            return event

    for seed in range(3):
        state = fresh_state(game_id, seed=seed)
        play_out(state, [Watched() for _ in range(4)], random.Random(seed))
        assert state.is_terminal()
    assert chosen and all(chosen)


def test_a_mixed_seat_draws_its_bot_from_the_pool_once_and_keeps_it():
    game = get_game("deep-sea-adventure")
    pool = [game.strategies[name] for name in game.playout_pool]
    strategy = mixed_strategy(pool, 0.0)
    drawn = set()
    for seed in range(30):
        seat, rng = strategy(), random.Random(seed)
        first = seat.drawn(rng)
        assert seat.drawn(rng) is first
        drawn.add(type(first))
    assert drawn == set(pool)


def test_a_mixed_seat_strays_from_its_bot_about_as_often_as_its_randomness():
    game = get_game("deep-dive")
    log = simulate_game(game, game.ruleset({}), ["risk-aware"] * 2, random.Random(5))
    point = next(decision_points(log))
    bot = game.strategies["surface-after-3"]
    keeps = bot().choose(point.state, point.actions, random.Random(0))
    human = mixed_strategy([bot], 0.5)
    strays = sum(
        human().choose(point.state, point.actions, random.Random(n)) != keeps for n in range(400)
    )
    # A random pick of two events strays half the time: 0.5 * 0.5 of 400 = 100 expected.
    assert len(point.actions) == 2 and 60 < strays < 140


def test_one_bot_without_randomness_is_that_bot_itself():
    bot = get_game("deep-vents").strategies["turtle"]
    assert mixed_strategy([bot], 0.0) is bot
    assert issubclass(mixed_strategy([bot], 0.2), MixedStrategy)
    with pytest.raises(ValueError, match="randomness"):
        mixed_strategy([bot], 1.5)


def test_a_dsa_estimate_does_not_depend_on_chip_values_the_diver_cannot_see():
    """Two positions that differ only in the values of face-down chips on the path look the
    same to the diver: its estimates must be the same (the playouts resample the values)."""
    first = fresh_state("deep-sea-adventure", players=3)
    second = first.clone()
    values = [item for item in second.path if item]
    swapped = 0
    for i, item in enumerate(second.path):  # swap two chips' values within each level
        for j in range(i + 1, len(second.path)):
            other = second.path[j]
            if item and other and item[0][0] == other[0][0] and item[0][1] != other[0][1]:
                second.path[i], second.path[j] = other, item
                swapped += 1
                break
        if swapped:
            break
    assert swapped and values != [item for item in second.path if item]
    actions = seat_actions(first, first.seat)
    estimates = [
        evaluate_position("deep-sea-adventure", s, first.seat, actions, 3, budget=SMALL)
        for s in (first, second)
    ]
    assert [e.win for e in estimates[0]] == [e.win for e in estimates[1]]


def test_a_deep_vents_estimate_does_not_depend_on_the_order_of_the_hidden_stack_dv_2():
    first = new_state(players=2)
    second = first.clone()
    top = second.next_in_stack
    second.stack = second.stack[:top] + list(reversed(second.stack[top:]))
    assert second.stack != first.stack
    seat = first.decider
    actions = seat_actions(first, seat)[:2]
    estimates = [
        evaluate_position("deep-vents", s, seat, actions, 2, budget=SMALL) for s in (first, second)
    ]
    assert [e.win for e in estimates[0]] == [e.win for e in estimates[1]]


def test_no_game_package_imports_the_analysis_built_on_it():
    """Issue 26: per-game search knowledge lives on the Game; the packages import only the
    core (the registry adds the montecarlo bot)."""
    for path in ENGINES.glob("deep_*/*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("engines.analysis"), path
