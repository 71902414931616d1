"""Ecosystem geometry (DV-4): axial coordinates, neighbours, activation order."""

from __future__ import annotations

from engines.deep_vents.edition import HexType

Coord = tuple[int, int]

# Pointy-top axial neighbours: (q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1) (DV-4).
NEIGHBOUR_OFFSETS: tuple[Coord, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def neighbour_coords(at: Coord) -> list[Coord]:
    q, r = at
    return [(q + dq, r + dr) for dq, dr in NEIGHBOUR_OFFSETS]


# The neighbours of every cell near the Deep Vents, computed once: placing a hex looks its
# cell up here instead of building six coordinates (cells farther out are computed).
_NEAR = 12
_NEIGHBOURS: dict[Coord, tuple[Coord, ...]] = {
    (q, r): tuple(neighbour_coords((q, r)))
    for q in range(-_NEAR, _NEAR + 1)
    for r in range(-_NEAR, _NEAR + 1)
}


def neighbour_cells(at: Coord) -> tuple[Coord, ...]:
    """The six cells around `at` (DV-4), as neighbour_coords, from the table when near."""
    cells = _NEIGHBOURS.get(at)
    return cells if cells is not None else tuple(neighbour_coords(at))


# Top-left to bottom-right: r ascending, then q + r/2 ascending (DV-4), as one int (r, then
# 2q + r), which sorts faster than a pair. Exact while |2q + r| < 2**31: a hex touches one
# of its owner's, from the Deep Vent at (0, 0) out, and an ecosystem holds a hex a turn.
_ORDER_SPAN = 1 << 32


def order_rank(at: Coord) -> int:
    """A cell's place in the activation order (DV-4)."""
    q, r = at
    return r * _ORDER_SPAN + 2 * q + r


class _OrderRanks(dict[Coord, int]):
    """order_rank of every cell near the Deep Vents, computed once (others as asked):
    `ORDER_RANK.__getitem__` as a sort key is read without a Python call."""

    def __missing__(self, at: Coord) -> int:
        return order_rank(at)


ORDER_RANK = _OrderRanks({cell: order_rank(cell) for cell in _NEIGHBOURS})


def activation_key(tile: Tile) -> int:
    """A tile's place in the activation order (DV-4), see order_rank."""
    return tile.order


class Tile:
    """A hex in play in one player's ecosystem."""

    __slots__ = (
        "archaea",
        "at",
        "attacks",
        "collected",
        "damage",
        "decimated",
        "grown",
        "grows",
        "kind",
        "neighbours",
        "order",
        "track",
        "triggers",
    )

    def __init__(self, kind: HexType, at: Coord, archaea: int = 0) -> None:
        self.kind = kind
        self.at = at
        self.order = ORDER_RANK[at]  # kept: sorting reads it often
        self.archaea = archaea
        self.decimated = False
        self.track = 0  # index into kind.track (tracks start on their first space)
        self.neighbours: list[Tile] = []  # the same player's adjacent tiles (DV-4)
        # What it did, counted while facts are collected (the "hex-totals" fact at the
        # game's end): grows and the archaea they put on it, trigger repetitions and what
        # they collected, attacks it made and their damage.
        self.grows = self.grown = self.triggers = self.collected = self.attacks = 0
        self.damage = 0

    def copy(self) -> Tile:
        """This tile with its own counters; `neighbours` is left for the caller to rebuild
        among the copies (DeepVentsState.clone)."""
        # Made by __init__: a compiled Tile (engines.compiled) has no blank __new__.
        twin = Tile(self.kind, self.at, self.archaea)
        twin.decimated, twin.track = self.decimated, self.track
        twin.grows, twin.grown, twin.triggers = self.grows, self.grown, self.triggers
        twin.collected, twin.attacks, twin.damage = self.collected, self.attacks, self.damage
        return twin

    def trait(self, name: str) -> int:
        """How many `name` symbols this tile shows now (DV-5)."""
        if self.decimated:
            return self.kind.back.get(name, 0)
        if name == "heat" and self.kind.heat_is_archaea:
            return self.archaea
        return self.kind.traits.get(name, 0)

    def traits(self) -> dict[str, int]:
        """Every trait this tile shows now."""
        if self.decimated:
            return dict(self.kind.back)
        shown = dict(self.kind.traits)
        if self.kind.heat_is_archaea:
            shown["heat"] = self.archaea
        return shown

    def __repr__(self) -> str:
        flipped = ", decimated" if self.decimated else ""
        return f"Tile({self.kind.id} at {list(self.at)}, {self.archaea} archaea{flipped})"
