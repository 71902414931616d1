"""DeepVentsState.clone copies tile by tile: it must be the deepcopy it replaces (State.clone),
at every kind of pending decision, and as independent of the original. The reference is the
same log replayed again to the same event, as a deepcopy cannot copy a compiled state
(engines.compiled) and these tests run on both."""

import random

from engines.core.replay import apply_events, start
from engines.core.simulate import play_out, simulate
from engines.deep_vents.board import Tile
from engines.deep_vents.edition import HexType
from engines.deep_vents.state import _FIELDS, Player
from engines.registry import get_game

GAME = get_game("deep-vents")
# Player.__slots__, which a compiled Player no longer lists.
PLAYER_FIELDS = (
    *("eliminated_turn", "frontier", "hexes", "seat"),
    *("shells", "supply", "tokens", "turns"),
)


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
        return {name: picture(getattr(value, name)) for name in PLAYER_FIELDS}
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


def attributes(state) -> set[str]:
    """What a state holds: its __dict__, and a compiled state's own attributes besides."""
    return (set(vars(state)) | set(getattr(type(state), "__mypyc_attrs__", ()))) - {"__dict__"}


def state_picture(state):
    names = attributes(state) - {"edition"}
    return {name: picture(getattr(state, name)) for name in names if hasattr(state, name)}


def positions(games: int = 6):
    """States along simulated 4-player games, facts on: every phase, mid-trigger included;
    each with a function that replays its log to the same point again, facts left out."""
    for log in simulate(GAME, GAME.ruleset({}), 4, games, "clone"):
        _, _, state = start(log)
        state.facts = []
        for index, event in enumerate(log["events"]):
            if index % 7 == 0 or state.phase in ("shell", "decimate", "bid"):
                yield state, lambda log=log, index=index: replayed_to(log, index)
            state.apply_action(event)


def replayed_to(log, index: int):
    _, _, state = start(log)
    state.facts = []  # as the position's own state collects them (a trigger's fact)
    apply_events(state, log["events"][:index])
    state.facts = None  # as a clone holds none
    return state


def test_the_positions_reach_every_kind_of_decision():
    assert {state.phase for state, _ in positions()} >= {
        "bid", "take", "place", "activate", "shell", "decimate",
    }  # fmt: skip


def test_a_clone_holds_what_a_deepcopy_holds_at_every_position():
    for state, again in positions():
        assert state_picture(state.clone()) == state_picture(again())


def test_clone_copies_every_attribute_of_a_state_but_the_facts():
    for state, _ in positions(1):
        assert attributes(state) - {"facts", "detail_facts", "check_log"} == set(_FIELDS)
    assert set(getattr(Player, "__slots__", PLAYER_FIELDS)) == set(PLAYER_FIELDS)


def test_a_clone_plays_on_as_a_deepcopy_does_and_leaves_the_original_alone():
    bot = GAME.playout_strategy()
    for number, (state, again) in enumerate(positions(3)):
        before = state_picture(state)
        fast, slow = state.clone(), again()
        assert fast.facts is None
        fast_events = play_out(fast, [bot() for _ in range(4)], random.Random(number))
        slow_events = play_out(slow, [bot() for _ in range(4)], random.Random(number))
        assert fast_events == slow_events
        assert fast.outcome() == slow.outcome()
        assert state_picture(state) == before


def test_a_clone_shares_no_tile_player_or_list_with_the_original():
    for state, _ in positions(1):
        twin = state.clone()
        originals = {id(t) for p in state.players for t in p.hexes.values()}
        copies = [t for p in twin.players for t in p.hexes.values()]
        reached = [*copies, *twin.activation, *twin.decimate_choices.values()]
        reached += [nb for t in copies for nb in t.neighbours]
        reached += [t for t in (twin.repeat_tile, twin.trigger_tile) if t is not None]
        assert not {id(t) for t in reached} & originals
        for name in ("players", "stack", "row", "row_archaea", "order", "bids", "passed"):
            assert getattr(twin, name) is not getattr(state, name)
