"""A Deep Sea Adventure game whose first dive DSA-9 decides (engine and reverify tests)."""

from __future__ import annotations

import random
from typing import Any

from engines.core.schema import FORMAT
from engines.core.simulate import play_out
from engines.deep_sea_adventure.bots import GrabTwoThenTurn
from engines.deep_sea_adventure.game import DeepSeaAdventure, DeepSeaAdventureBoost
from engines.deep_sea_adventure.state import DeepSeaState

GAME = DeepSeaAdventure()
CHIPS = [value for level in GAME.editions()["first"].levels for value in level]
BOOST = DeepSeaAdventureBoost()
BOOST_CHIPS = [value for level in BOOST.editions()["boost"].levels for value in level]


def roll(seat: int, *dice: int) -> dict[str, Any]:
    return {"type": "roll", "seat": seat, "dice": list(dice)}


def act(kind: str, seat: int, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **fields}


# Seat 0 drops its only chip on space 3 on the way home and, empty-handed, reaches space 1
# with nothing between it and the submarine, while seat 1 is already back aboard. Before
# DSA-9 the dive ended there with seat 0 drowned; under DSA-9 seat 0 swims home.
DROP_AND_SWIM_HOME = [
    roll(0, 1, 1),
    act("pick", 0),  # 0 -> 2, takes the chip there
    roll(1, 1, 1),
    act("pick", 1),  # 1 -> 3 (2 is taken), takes it
    act("swim", 0),
    roll(0, 1, 1),
    act("pass", 0),  # 2 -> 4 (3 is taken)
    act("turn", 1),
    roll(1, 1, 1),
    act("pass", 1),  # 3 -> 2, a blank
    act("swim", 0),
    roll(0, 1, 1),
    act("pass", 0),  # 4 -> 5
    roll(1, 1, 1),
    act("pick", 1),  # 2 -> 1, takes that chip too
    act("turn", 0),
    roll(0, 2, 1),
    act("drop", 0, chip=0),  # 5 -> 3, empty-handed now
    roll(1, 3, 3),  # home with two chips
    roll(0, 1, 1),  # 3 -> 1: nothing left between seat 0 and the submarine
]
DIVE_GOES_ON = [roll(0, 1, 1)]  # DSA-9: seat 0 is back; it starts dive 2 (DSA-6)


def dsa_9_log(opening: list[dict[str, Any]], seed: int = 9) -> dict[str, Any]:
    """Two bots play the game on from `opening` with the rules as the engine has them."""
    ruleset = GAME.ruleset()
    setup = {"chips": CHIPS}
    state = GAME.new_state(ruleset, 2, setup)
    for event in opening:
        state.apply_action(event)
    rest = play_out(state, [GrabTwoThenTurn(), GrabTwoThenTurn()], random.Random(seed))
    return {
        "format": FORMAT,
        "game": GAME.id,
        "ruleset": ruleset.to_json(),
        "players": [{"name": "Marina Abyss"}, {"name": "Nemo"}],
        "setup": setup,
        "events": [*opening, *rest],
        "result": state.outcome().to_result(),
    }


def new_game(
    players: int = 2,
    chips: list | None = None,
    ruleset: dict | None = None,
    next_first_player: str | None = None,
) -> DeepSeaState:
    """A game's state at its start: the first edition's chips unless `chips` are given, the
    ruleset `ruleset` describes (name, options; the default one without), or the default
    one with option next_first_player (DSA-6) set."""
    if next_first_player is not None:
        ruleset = {"options": {"next_first_player": next_first_player}}
    return GAME.new_state(
        GAME.ruleset(ruleset), players, {"chips": CHIPS if chips is None else chips}
    )


def new_boost_game(name: str) -> DeepSeaState:
    """A two-seat game of Boost's ruleset `name`, with Boost's chips."""
    return BOOST.new_state(BOOST.ruleset({"name": name}), 2, {"chips": BOOST_CHIPS})
