"""Helpers for the Deep Vents tests: tables laid out by hand, events spelled briefly."""

from __future__ import annotations

from typing import Any

from engines.deep_vents.board import Tile, activation_key, neighbour_coords
from engines.deep_vents.edition import editions
from engines.deep_vents.game import DeepVents
from engines.deep_vents.state import ACTIVATE, DeepVentsState
from engines.registry import get_game

GAME = DeepVents()
EDITION = editions()["first"]

# DV-5: the rulebook's example ecosystem (grow and trigger examples).
EXAMPLE_LAYOUT = [
    ("yeti-crab", (1, 0)),
    ("goblin-shark", (-1, 1)),
    ("white-smoker", (0, 1)),
    ("black-smoker", (1, 1)),
    ("lanternfish", (-1, 2)),
    ("scaly-foot-snail", (0, 2)),
]


def full_stack() -> list[str]:
    """Every stack hex once per copy, in a fixed order (a valid setup.stack)."""
    return [h for h, n in sorted(EDITION.stack_counts.items()) for _ in range(n)]


def new_state(
    players: int = 2,
    ruleset: str = "standard",
    stack: list[str] | None = None,
    **setup: Any,
) -> DeepVentsState:
    rules = GAME.ruleset({"name": ruleset, "options": setup.pop("options", {})})
    if ruleset == "starting-bid":
        setup.setdefault("opening_bidder", 0)
    return GAME.new_state(rules, players, {"stack": stack or full_stack(), **setup})


def lay_out(
    state: DeepVentsState, seat: int, tiles: list[tuple[str, tuple[int, int]]]
) -> dict[tuple[int, int], Tile]:
    """Put hexes into a seat's ecosystem as if placed on earlier turns (DV-4 adjacency)."""
    hexes = state.players[seat].hexes
    for hex_id, at in tiles:
        tile = Tile(EDITION.hexes[hex_id], at)
        tile.neighbours = [hexes[c] for c in neighbour_coords(at) if c in hexes]
        for nb in tile.neighbours:
            nb.neighbours.append(tile)
        hexes[at] = tile
    return hexes


def start_activation(state: DeepVentsState, seat: int) -> list[Tile]:
    """Make it `seat`'s activation step (as after taking and placing a hex)."""
    state.active = seat
    state.decider = seat
    state.phase = ACTIVATE
    state.activation = sorted(
        (t for t in state.players[seat].hexes.values() if not t.decimated), key=activation_key
    )
    state.act_next = 0
    state.repeat_tile = None
    return state.activation


def ev(kind: str, seat: int, **fields: Any) -> dict[str, Any]:
    """An event; hex/from/source given as tuples become [q, r] lists."""
    for key in ("hex", "from", "source"):
        if key in fields:
            fields[key] = list(fields[key])
    return {"type": kind, "seat": seat, **fields}


def apply_all(state: DeepVentsState, events: list[dict[str, Any]]) -> None:
    for event in events:
        state.apply_action(event)


def simulated_log(players: int = 4, seed: int = 1, **kwargs: Any) -> dict[str, Any]:
    """One bot game's log (deterministic for its seed)."""
    from engines.core.simulate import game_rng, simulate_game, table_strategies

    game = get_game("deep-vents")
    ruleset = game.ruleset(kwargs.pop("ruleset", None))
    rng = game_rng(seed, 0)
    strategies = kwargs.pop("strategies", None)
    table = table_strategies(game, players, strategies, rng)
    return simulate_game(game, ruleset, table, rng)


def plain_turn(state: DeepVentsState, position: int = 1) -> None:
    """The active seat takes `position`, places on the first free cell, grows every hex."""
    seat = state.current_seat()
    assert seat is not None
    state.apply_action(ev("take", seat, position=position))
    state.apply_action(ev("place", seat, hex=state.free_cells(seat)[0]))
    while True:
        grows = [e for e in state.legal_actions() if e["type"] in ("grow", "end")]
        state.apply_action(grows[0] if grows else state.legal_actions()[0])
        if grows and grows[0]["type"] == "end":
            return
