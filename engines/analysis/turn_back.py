"""The turn-back advisor of Deep Sea Adventure and Boost, built on the evaluator.

`advisor_state` lays out a dive as described (dive, air, each diver's depth, the levels of
the chips they carry and whether they head down, up or are back aboard); the first diver is
about to declare (DSA-4: turn back, B-3: boost, or swim on). Chip values nobody at the table
could know are resampled in every playout, like in an analysis; so are the values of the
deciding diver's chips, given by level only.

The study of when to turn back, by divers, dive, depth and load, is engines/turn_back_study.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.analysis.evaluator import ActionEstimate, Budget, evaluate_position, seat_actions
from engines.deep_sea_adventure.state import DECLARE, DeepSeaState
from engines.registry import get_game

GAMES = ("deep-sea-adventure", "deep-sea-adventure-boost")


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
