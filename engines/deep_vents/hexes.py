"""What each hex does when it grows or triggers (DV-5, DV-9..DV-12).

The edition data names a grow kind and a list of trigger effects per hex type;
this module maps those names to behaviour. Grow functions return the archaea
they bring to the tile (the state puts them on, capped, DV-6). Effect functions
return True when they wait for a player's decision (a shell or a decimation);
the state resumes the effect list after that decision arrives.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engines.deep_vents.board import Tile
    from engines.deep_vents.state import DeepVentsState, Player

Event = dict[str, Any]


# --- grow (DV-5 "grow" column) ---------------------------------------------------------


def grow_fixed(state: DeepVentsState, tile: Tile, choice: Tile | None) -> int:
    return tile.kind.grow["amount"]


def grow_adjacent_traits(state: DeepVentsState, tile: Tile, choice: Tile | None) -> int:
    """+1 per symbol of the grow's traits on adjacent hexes: Tile.trait, summed ahead in
    the edition (HexType.grow_shown) but for an Undersea Volcano's heat, its archaea (DV-5)."""
    kind = tile.kind
    shown = kind.grow_shown
    heat = "heat" in kind.grow["traits"]
    total = 0
    for nb in tile.neighbours:
        front, back = shown[nb.kind]
        if nb.decimated:
            total += back
        else:
            total += front
            if heat and nb.kind.heat_is_archaea:
                total += nb.archaea
    return total


def grow_track(state: DeepVentsState, tile: Tile, choice: Tile | None) -> int:
    return tile.kind.track[tile.track]


def grow_drain_adjacent(state: DeepVentsState, tile: Tile, choice: Tile | None) -> int:
    """Giant Squid: each adjacent hex showing the trait moves archaea here."""
    spec = tile.kind.grow
    moved = 0
    for nb in tile.neighbours:
        if nb.archaea and nb.trait(spec["trait"]):
            taken = min(spec["amount"], nb.archaea)
            nb.archaea -= taken
            moved += taken
    return moved


def grow_take_adjacent(state: DeepVentsState, tile: Tile, choice: Tile | None) -> int:
    """Gulper Eel: all archaea of one chosen adjacent hex, decimated or not (DV-16)."""
    assert choice is not None
    moved, choice.archaea = choice.archaea, 0
    return moved


def grow_adjacent_holding(state: DeepVentsState, tile: Tile, choice: Tile | None) -> int:
    least = tile.kind.grow["min"]
    return len([nb for nb in tile.neighbours if nb.archaea >= least])


def grow_opponent_hexes_holding(state: DeepVentsState, tile: Tile, choice: Tile | None) -> int:
    """Glowing Medusa: opponents' hexes holding at least the starting player count."""
    least = tile.kind.grow["min"]
    if least == "players":
        least = len(state.players)
    return len(
        [
            t
            for other in state.opponents_in_play(state.active)
            for t in other.hexes.values()
            if t.archaea >= least
        ]
    )


def grow_none(state: DeepVentsState, tile: Tile, choice: Tile | None) -> int:
    return 0


Grow = Callable[["DeepVentsState", "Tile", "Tile | None"], int]

GROWS: dict[str, Grow] = {
    "fixed": grow_fixed,
    "adjacent_traits": grow_adjacent_traits,
    "track": grow_track,
    "drain_adjacent": grow_drain_adjacent,
    "take_adjacent": grow_take_adjacent,
    "adjacent_holding": grow_adjacent_holding,
    "opponent_hexes_holding": grow_opponent_hexes_holding,
    "none": grow_none,
}

# Grow kinds whose event names a chosen adjacent hex in "from".
GROW_CHOICES = {"take_adjacent"}


# --- trigger cost (DV-6, DV-12, DV-16) --------------------------------------------------


def trigger_problem(tile: Tile, source: Tile | None) -> tuple[str, str] | None:
    """Why this tile cannot trigger now (message, ruling), or None if it can."""
    kind = tile.kind
    if tile.decimated:
        return f"{kind.name} is decimated and cannot be activated", "DV-13"
    automatic = kind.automatic_at
    if automatic is not None:
        if tile.archaea < automatic:
            return (
                f"{tile.kind.name} triggers only with {automatic} or more archaea, "
                f"has {tile.archaea}",
                "DV-9",
            )
        return None
    cost = kind.trigger["cost"]
    if kind.uses_source:
        if source is None or source.archaea < cost["min"]:
            held = 0 if source is None else source.archaea
            return (
                f"{tile.kind.name} spends all archaea of itself or an adjacent hex holding "
                f"at least {cost['min']}; the chosen hex holds {held}",
                "DV-12",
            )
        return None
    if cost == "adjacent_hexes":
        cost = len(tile.neighbours)
    if cost == 0:
        if tile.archaea == 0:
            return f"{tile.kind.name} has no archaea to collect, so it must grow", "DV-6"
        return None
    if tile.archaea < cost:
        return (
            f"{tile.kind.name} costs {cost} archaea to trigger, has {tile.archaea}; it must grow",
            "DV-6",
        )
    return None


def can_trigger(tile: Tile, source: Tile | None) -> bool:
    """Whether `trigger_problem(tile, source)` is None, answered without building its
    message: playouts ask it at every activation, where most hexes cannot trigger and grow."""
    if tile.decimated:
        return False
    kind = tile.kind
    automatic = kind.automatic_at
    if automatic is not None:
        return tile.archaea >= automatic
    cost = kind.trigger["cost"]
    if kind.uses_source:
        return source is not None and source.archaea >= cost["min"]
    if cost == "adjacent_hexes":
        cost = len(tile.neighbours)
    if cost == 0:
        return tile.archaea != 0
    return tile.archaea >= cost


def pay_trigger(tile: Tile, source: Tile | None) -> int:
    """Pay a checked trigger cost to the general supply; returns the archaea spent."""
    kind = tile.kind
    if kind.automatic_at is not None:
        return 0
    cost = kind.trigger["cost"]
    if kind.uses_source:
        assert source is not None
        paid, source.archaea = source.archaea, 0
        return paid
    if cost == "adjacent_hexes":
        cost = len(tile.neighbours)
    tile.archaea -= cost
    return cost


# --- trigger effects --------------------------------------------------------------------


def attack_damage(spec: dict[str, Any], defender: Player) -> int:
    """An attack's damage against one defender, measured as it lands (DV-7, DV-16)."""
    if "damage" in spec:
        return spec["damage"]
    if "per_trait" in spec:
        trait = spec["per_trait"]
        heat = trait == "heat"
        total = 0
        for t in defender.hexes.values():
            # Tile.trait, inlined: a defender's total counts every hex they own (DV-5).
            kind = t.kind
            if t.decimated:
                total += kind.back.get(trait, 0)
            elif heat and kind.heat_is_archaea:
                total += t.archaea
            else:
                total += kind.traits.get(trait, 0)
        return total * spec.get("multiplier", 1)
    least = spec["per_hex_holding"]
    return sum(1 for t in defender.hexes.values() if t.archaea >= least)


def effect_collect(state: DeepVentsState, tile: Tile, spec: Event, seat: int | None) -> bool:
    state.collect(tile)
    return False


def effect_feed_adjacent(state: DeepVentsState, tile: Tile, spec: Event, seat: int | None) -> bool:
    state.feed_adjacent(tile, spec["amount"])
    return False


def effect_gain_shells(state: DeepVentsState, tile: Tile, spec: Event, seat: int | None) -> bool:
    state.gain_shells(spec["amount"])
    return False


def effect_track_shells(state: DeepVentsState, tile: Tile, spec: Event, seat: int | None) -> bool:
    """Scaly-Foot Snail: shells equal to the marked space, then advance (DV-16: stops at end)."""
    state.gain_shells(tile.kind.track[tile.track])
    tile.track = min(tile.track + 1, len(tile.kind.track) - 1)
    return False


def effect_advance_track(state: DeepVentsState, tile: Tile, spec: Event, seat: int | None) -> bool:
    tile.track = min(tile.track + 1, len(tile.kind.track) - 1)
    return False


def effect_bank(state: DeepVentsState, tile: Tile, spec: Event, seat: int | None) -> bool:
    """Vampire Squid: archaea from the general supply straight to the owner's supply."""
    state.players[state.active].supply += spec["amount"]
    return False


def effect_decimate_self(state: DeepVentsState, tile: Tile, spec: Event, seat: int | None) -> bool:
    state.decimate(state.active, tile, cause=tile.kind.id)
    return False


def effect_attack(state: DeepVentsState, tile: Tile, spec: Event, seat: int | None) -> bool:
    assert seat is not None
    return state.attack(seat, attack_damage(spec, state.players[seat]))


def effect_destroy_shell(state: DeepVentsState, tile: Tile, spec: Event, seat: int | None) -> bool:
    assert seat is not None
    state.destroy_shells(seat, spec["amount"])
    return False


def effect_hunt(state: DeepVentsState, tile: Tile, spec: Event, seat: int | None) -> bool:
    """Bull Cachalot (DV-11): decimate a live listed squid, or suffer the other attack."""
    assert seat is not None
    prey = [
        t
        for t in state.players[seat].hexes.values()
        if t.kind.id in spec["prey"] and not t.decimated
    ]
    if prey:
        return state.ask_decimate(seat, prey, cause=tile.kind.id)
    return state.attack(seat, attack_damage(spec["otherwise"], state.players[seat]))


def effect_opponents_decimate(
    state: DeepVentsState, tile: Tile, spec: Event, seat: int | None
) -> bool:
    """Undersea Volcano (DV-9): each opponent decimates one live hex; none live, skip."""
    assert seat is not None
    live = [t for t in state.players[seat].hexes.values() if not t.decimated]
    return bool(live) and state.ask_decimate(seat, live, cause=tile.kind.id)


Effect = Callable[["DeepVentsState", "Tile", Event, "int | None"], bool]

# kind -> (behaviour, applies once per opponent in play, clockwise from the active player)
EFFECTS: dict[str, tuple[Effect, bool]] = {
    "collect": (effect_collect, False),
    "feed_adjacent": (effect_feed_adjacent, False),
    "gain_shells": (effect_gain_shells, False),
    "track_shells": (effect_track_shells, False),
    "advance_track": (effect_advance_track, False),
    "bank": (effect_bank, False),
    "decimate_self": (effect_decimate_self, False),
    "attack": (effect_attack, True),
    "destroy_shell": (effect_destroy_shell, True),
    "hunt": (effect_hunt, True),
    "opponents_decimate": (effect_opponents_decimate, True),
}

# Passive grows (DV-10): when they fire is decided by the state; the data names which.
PASSIVES = {"opponent_decimates", "adjacent_triggered"}
