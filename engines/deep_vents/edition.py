"""Edition data (DV-1, DV-3, DV-5): loaded from `editions.json`, never written in code.

An organiser whose printed copy differs registers another edition in the data
file; the engine reads hex traits, grow and trigger kinds, counts, tracks and
tables from here only.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib.resources import files
from typing import Any

from engines.deep_vents.hexes import EFFECTS, GROW_CHOICES, GROWS, PASSIVES, Effect, Grow

# Beside the package's source files, wherever this module was loaded from (engines.compiled).
DATA_FILE = files("engines.deep_vents").joinpath("editions.json")
TRAITS = ("heat", "rock", "predation", "bioluminescence")


@dataclass(frozen=True, eq=False)
class HexType:
    """One kind of hex tile as printed (front and back)."""

    id: str
    name: str
    copies: int
    traits: dict[str, int]  # front passive traits, one count per symbol (DV-5)
    back: dict[str, int]  # the decimated side (DV-13)
    heat_is_archaea: bool  # Undersea Volcano: its heat is the archaea on it
    grow: dict[str, Any]
    trigger: dict[str, Any]
    passive: dict[str, Any] | None
    track: tuple[int, ...]
    # Compiled from the data above, for replay speed:
    grow_behaviour: Grow
    # What a grow brings whatever the table (a fixed amount, or none), else None: replay
    # then skips the call to grow_behaviour.
    grow_amount: int | None
    grow_takes_choice: bool  # the grow event names an adjacent hex ("from")
    uses_source: bool  # the trigger spends from a chosen hex ("source", DV-12)
    # (behaviour, effect data, once per opponent) for each trigger effect, in printed order
    effects: tuple[tuple[Effect, dict[str, Any], bool], ...]
    # The effects as the trigger's queue (behaviour, effect data, no seat), when none applies
    # once per opponent; else None (the queue depends on who is in play).
    effects_alone: tuple[tuple[Effect, dict[str, Any], None], ...] | None
    # Archaea at which the hex must trigger and below which it cannot (DV-9), if any.
    automatic_at: int | None
    # Below this many archaea a grow naming no other hex is the whole of this hex's grow
    # (no "from", DV-5; not yet bound to trigger, DV-9): replay's fast path for grows.
    plain_grow_below: int
    # An adjacent_traits grow: for each hex type, the symbols of the grow's traits it shows
    # (front, back), heat excepted where heat is archaea (DV-5); filled by `_edition`.
    grow_shown: dict[HexType, tuple[int, int]] = field(default_factory=dict, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> HexType:
        return self  # immutable edition data is shared by copies of a state


@dataclass(frozen=True, eq=False)
class Edition:
    """Every number of one printing of the game."""

    name: str
    title: str
    starting_hex: HexType
    turns: int
    hex_capacity: int
    shortfall_loan: int
    shortfall_payoff: int
    shortfall_penalty: int
    eliminated_at: int
    starting_archaea: dict[int, tuple[int, ...]]
    bid_base: dict[int, int]
    bid_bonus: tuple[int, ...]
    hexes: dict[str, HexType]

    @cached_property  # every log's setup is checked against it
    def stack_counts(self) -> dict[str, int]:
        """How many copies of each hex type the shuffled stack holds (DV-1)."""
        return {k: t.copies for k, t in self.hexes.items() if t is not self.starting_hex}

    @cached_property  # read as every game starts
    def stack_size(self) -> int:
        return sum(self.stack_counts.values())

    @cached_property  # a log's whole stack, sorted, is compared with it (DV-1)
    def full_stack(self) -> list[str]:
        """The ids of every hex of the shuffled stack, sorted (DV-1)."""
        return sorted(hex_id for hex_id, n in self.stack_counts.items() for _ in range(n))

    def __deepcopy__(self, memo: dict[int, Any]) -> Edition:
        return self


def _counts(symbols: list[str], where: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for symbol in symbols:
        if symbol not in TRAITS:
            raise ValueError(f"{where}: unknown trait {symbol!r}")
        counts[symbol] = counts.get(symbol, 0) + 1
    return counts


def _hex_type(hex_id: str, data: dict[str, Any]) -> HexType:
    where = f"{DATA_FILE.name}: hex {hex_id}"
    grow, trigger, passive = data["grow"], data["trigger"], data.get("passive")
    automatic_at = trigger.get("automatic_at")
    if grow["kind"] in GROW_CHOICES:
        plain_grow_below = -1  # every grow names a hex
    elif automatic_at is None:
        plain_grow_below = sys.maxsize
    else:
        plain_grow_below = automatic_at
    if grow["kind"] not in GROWS:
        raise ValueError(f"{where}: unknown grow kind {grow['kind']!r}")
    for effect in trigger["effects"]:
        if effect["kind"] not in EFFECTS:
            raise ValueError(f"{where}: unknown trigger effect {effect['kind']!r}")
    if passive is not None and passive["when"] not in PASSIVES:
        raise ValueError(f"{where}: unknown passive {passive['when']!r}")
    return HexType(
        id=hex_id,
        name=data["name"],
        copies=data["copies"],
        traits=_counts(data["traits"], where),
        back=_counts(data["back"], where),
        heat_is_archaea=data.get("heat_is_archaea", False),
        grow=grow,
        trigger=trigger,
        passive=passive,
        track=tuple(data.get("track", ())),
        grow_behaviour=GROWS[grow["kind"]],
        grow_amount={"fixed": grow.get("amount"), "none": 0}.get(grow["kind"]),
        grow_takes_choice=grow["kind"] in GROW_CHOICES,
        uses_source=isinstance(trigger.get("cost"), dict),
        automatic_at=automatic_at,
        plain_grow_below=plain_grow_below,
        effects=tuple(
            (EFFECTS[e["kind"]][0], e, EFFECTS[e["kind"]][1]) for e in trigger["effects"]
        ),
        effects_alone=(
            None
            if any(EFFECTS[e["kind"]][1] for e in trigger["effects"])
            else tuple((EFFECTS[e["kind"]][0], e, None) for e in trigger["effects"])
        ),
    )


def _grow_shown(grower: HexType, shower: HexType) -> tuple[int, int]:
    """What `shower` adds to `grower`'s adjacent_traits grow, front up and decimated."""
    traits = grower.grow["traits"]
    front = sum(
        shower.traits.get(t, 0) for t in traits if not (t == "heat" and shower.heat_is_archaea)
    )
    return front, sum(shower.back.get(t, 0) for t in traits)


def _edition(name: str, data: dict[str, Any]) -> Edition:
    hexes = {hex_id: _hex_type(hex_id, spec) for hex_id, spec in data["hexes"].items()}
    for grower in hexes.values():
        if grower.grow["kind"] == "adjacent_traits":
            grower.grow_shown.update({t: _grow_shown(grower, t) for t in hexes.values()})
    return Edition(
        name=name,
        title=data["title"],
        starting_hex=hexes[data["starting_hex"]],
        turns=data["turns"],
        hex_capacity=data["hex_capacity"],
        shortfall_loan=data["shortfall"]["loan"],
        shortfall_payoff=data["shortfall"]["payoff"],
        shortfall_penalty=data["shortfall"]["penalty"],
        eliminated_at=data["shortfall"]["eliminated_at"],
        starting_archaea={int(n): tuple(v) for n, v in data["starting_archaea"].items()},
        bid_base={int(n): v for n, v in data["bid"]["base"].items()},
        bid_bonus=tuple(data["bid"]["bonus_by_turn_order"]),
        hexes=hexes,
    )


@cache
def editions() -> dict[str, Edition]:
    """Every edition in the data file, by name."""
    raw = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    return {name: _edition(name, data) for name, data in raw.items()}
