"""DeepVentsState.clone copies tile by tile: it must be the deepcopy it replaces (State.clone),
at every kind of pending decision, and as independent of the original."""

import random

from engines.core.game import State
from engines.core.replay import start
from engines.core.simulate import play_out, simulate
from engines.deep_vents.board import Tile
from engines.deep_vents.edition import HexType
from engines.deep_vents.state import Player
from engines.registry import get_game

GAME = get_game("deep-vents")


def picture(value, seen_tiles=None):
    """Everything a state holds, with each tile named by its place and counters."""
    if isinstance(value, Tile):
        return (
            "tile",
            value.kind.id,
            value.at,
            value.archaea,
            value.decimated,
            value.track,
            [nb.at for nb in value.neighbours],
        )
    if isinstance(value, Player):
        return {slot: picture(getattr(value, slot)) for slot in Player.__slots__}
    if isinstance(value, HexType):
        return ("hex", value.id)
    if callable(value):
        return ("code", value.__name__)
    if isinstance(value, dict):
        return {repr(key): picture(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [picture(item) for item in value]
    if isinstance(value, set):
        return sorted(value)
    return value


def state_picture(state):
    return {name: picture(value) for name, value in vars(state).items() if name != "edition"}


def positions(games: int = 6):
    """States along simulated 4-player games, facts on: every phase, mid-trigger included."""
    for log in simulate(GAME, GAME.ruleset({}), 4, games, "clone"):
        _, _, state = start(log)
        state.facts = []
        for index, event in enumerate(log["events"]):
            if index % 7 == 0 or state.phase in ("shell", "decimate", "bid"):
                yield state
            state.apply_action(event)


def test_the_positions_reach_every_kind_of_decision():
    assert {state.phase for state in positions()} >= {
        "bid", "take", "place", "activate", "shell", "decimate",
    }  # fmt: skip


def test_a_clone_holds_what_a_deepcopy_holds_at_every_position():
    for state in positions():
        assert state_picture(state.clone()) == state_picture(State.clone(state))


def test_a_clone_plays_on_as_a_deepcopy_does_and_leaves_the_original_alone():
    bot = GAME.playout_strategy()
    for number, state in enumerate(positions(3)):
        before = state_picture(state)
        fast, slow = state.clone(), State.clone(state)
        assert fast.facts is None
        fast_events = play_out(fast, [bot() for _ in range(4)], random.Random(number))
        slow_events = play_out(slow, [bot() for _ in range(4)], random.Random(number))
        assert fast_events == slow_events
        assert fast.outcome() == slow.outcome()
        assert state_picture(state) == before


def test_a_clone_shares_no_tile_player_or_list_with_the_original():
    for state in positions(1):
        twin = state.clone()
        originals = {id(t) for p in state.players for t in p.hexes.values()}
        copies = [t for p in twin.players for t in p.hexes.values()]
        reached = [*copies, *twin.activation, *twin.decimate_choices.values()]
        reached += [nb for t in copies for nb in t.neighbours]
        reached += [t for t in (twin.repeat_tile, twin.trigger_tile) if t is not None]
        assert not {id(t) for t in reached} & originals
        for name in ("players", "stack", "row", "row_archaea", "order", "bids", "passed"):
            assert getattr(twin, name) is not getattr(state, name)
