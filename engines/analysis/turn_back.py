"""The turn-back advisor of Deep Sea Adventure and Boost, built on the evaluator.

`advisor_state` lays out a dive as described (dive, air, each diver's depth, the levels of
the chips they carry and whether they head down, up or are back aboard); the first diver is
about to declare (DSA-4: turn back, B-3: boost, or swim on). Chip values nobody at the table
could know are resampled in every playout, like in an analysis; so are the values of the
deciding diver's chips, given by level only.

`turn_back_table` answers "at which air should a diver turn back?": for a depth and a load,
the largest air at which turning back wins at least as often as swimming on (within one
standard error), in a fixed scenario (four divers, the first dive, the three others already
heading home one, two and three spaces shallower with one chip each), everyone playing a
given strategy afterwards.
Win rates fall with less air for the swimmer faster than for the one turning back, so the
answer is found by bisection over the air (1 to the edition's air).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.analysis.evaluator import ActionEstimate, Budget, evaluate_position, seat_actions
from engines.deep_sea_adventure.state import DECLARE, DeepSeaState
from engines.registry import get_game

GAMES = ("deep-sea-adventure", "deep-sea-adventure-boost")
TABLE_BUDGET = Budget(target_se=0.05, min_playouts=32, max_playouts=64, batch=16)
TABLE_DEPTHS = (4, 8, 12, 16)
TABLE_LOADS = (1, 2)


class AdvisorError(ValueError):
    """A described dive that cannot happen; the message names the diver and the field."""


@dataclass(frozen=True)
class Diver:
    depth: int
    carried: tuple[int, ...]  # chip levels
    status: str = "down"  # down, up or aboard


def advisor_state(
    game_id: str, dive: int, air: int, divers: Sequence[Diver], seed: int = 0
) -> DeepSeaState:
    game = get_game(game_id)
    ruleset = game.ruleset({})
    players = len(divers)
    if not game.min_players <= players <= game.max_players:
        raise AdvisorError(f"{game.title} takes {game.min_players}-{game.max_players} divers")
    state = game.new_state(ruleset, players, game.new_setup(ruleset, players, random.Random(seed)))
    edition = state.edition
    if not 1 <= dive <= edition.dives:
        raise AdvisorError(f"dive must be 1 to {edition.dives}, not {dive}")
    if not 0 <= air <= edition.air:
        raise AdvisorError(f"air must be 0 to {edition.air}, not {air}")
    depths = [d.depth for d in divers if d.status != "aboard"]
    for number, diver in enumerate(divers, 1):
        if diver.status not in ("down", "up", "aboard"):
            raise AdvisorError(f"diver {number}: status is down, up or aboard")
        if diver.status != "aboard" and not 1 <= diver.depth <= len(state.path):
            raise AdvisorError(f"diver {number}: depth must be 1 to {len(state.path)}")
        if diver.status != "aboard" and depths.count(diver.depth) > 1:
            raise AdvisorError(f"diver {number}: another diver is on space {diver.depth} (DSA-2)")
        if any(level not in range(1, len(edition.levels) + 1) for level in diver.carried):
            raise AdvisorError(f"diver {number}: chip levels are 1 to {len(edition.levels)}")
    first = divers[0]
    if first.status != "down" or not first.carried:
        raise AdvisorError(
            "diver 1 decides: they must still be heading down and carry treasure to have the "
            "choice of turning back (DSA-4)"
        )
    state.dive = dive
    state.air = air
    state.last_turn = air == 0
    occupied = set(depths)
    for seat, diver in enumerate(divers):
        state.position[seat] = 0 if diver.status == "aboard" else diver.depth
        state.turned[seat] = diver.status != "down"
        state.returned[seat] = diver.status == "aboard"
        state.carried[seat] = [take_chip(state, level, occupied) for level in diver.carried]
    state.return_order = [seat for seat, d in enumerate(divers) if d.status == "aboard"]
    state.seat, state.stage, state.swam, state.boosting = 0, DECLARE, False, False
    return state


def take_chip(state: DeepSeaState, level: int, occupied: set[int]) -> tuple:
    """A chip of `level` from the path, leaving a blank: where no diver stands if possible."""
    spaces = sorted(range(1, len(state.path) + 1), key=lambda space: space in occupied)
    for space in spaces:
        item = state.path[space - 1]
        if item and item[0][0] == level:
            state.path[space - 1] = None
            return item
    raise AdvisorError(f"no level-{level} chip is left on the path")


def advise(
    game_id: str, state: DeepSeaState, budget: Budget, seed: str = "advisor"
) -> list[ActionEstimate]:
    """Each choice of diver 1 with its win probability, best first."""
    actions = seat_actions(state, 0)
    return evaluate_position(game_id, state, 0, actions, state.players, budget=budget, seed=seed)


def edition(game_id: str) -> Any:
    game = get_game(game_id)
    return game.editions()[game.ruleset({}).edition]


def scenario(game_id: str, depth: int, load: int, air: int) -> DeepSeaState:
    carried = tuple(edition(game_id).path_levels()[depth - 1] for _ in range(load))
    spaces = [s for s in (depth - 1, depth - 2, depth - 3, depth + 1, depth + 2) if s >= 1][:3]
    others = [Diver(space, (1,), "up") for space in spaces]
    return advisor_state(game_id, 1, air, [Diver(depth, carried, "down"), *others])


def turn_back_gain(
    game_id: str, strategy: str, depth: int, load: int, air: int
) -> tuple[float, float]:
    """Win probability of turning back minus that of swimming on, all playing `strategy`,
    and the standard error of that difference."""
    state = scenario(game_id, depth, load, air)
    actions = [a for a in seat_actions(state, 0) if a["type"] in ("turn", "swim")]
    estimates = evaluate_position(
        game_id,
        state,
        0,
        actions,
        state.players,
        budget=TABLE_BUDGET,
        seed="table",
        playout=strategy,
    )
    by_type = {e.action["type"]: e for e in estimates}
    turn, swim = by_type["turn"], by_type["swim"]
    return turn.win - swim.win, math.hypot(turn.se, swim.se)


def turn_back_air(game_id: str, strategy: str, depth: int, load: int) -> int:
    """The largest air at which turning back is at least as good as swimming on, within one
    standard error (0: swimming on is better even with 1 air left). Where both are hopeless
    (too deep for the air left) they tie, and the tie goes to turning back."""
    low, high = 0, edition(game_id).air
    while low < high:
        middle = (low + high + 1) // 2
        gain, error = turn_back_gain(game_id, strategy, depth, load, middle)
        if gain >= -error:
            low = middle
        else:
            high = middle - 1
    return low


def table_strategies(game_id: str) -> list[str]:
    return [s for s in get_game(game_id).strategies if s not in ("random", "montecarlo")]


def turn_back_table(game_id: str) -> dict[str, Any]:
    """Per strategy and load, the turn-back air at each depth of TABLE_DEPTHS."""
    rows = [
        {
            "strategy": strategy,
            "load": load,
            "turn_back_at_air": [
                turn_back_air(game_id, strategy, depth, load) for depth in TABLE_DEPTHS
            ],
        }
        for strategy in table_strategies(game_id)
        for load in TABLE_LOADS
    ]
    return {
        "game": game_id,
        "budget": TABLE_BUDGET.to_json(),
        "depths": list(TABLE_DEPTHS),
        "rows": rows,
    }
