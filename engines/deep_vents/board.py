"""Ecosystem geometry (DV-4): axial coordinates, neighbours, activation order."""

from __future__ import annotations

from engines.deep_vents.edition import HexType

Coord = tuple[int, int]

# Pointy-top axial neighbours: (q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1) (DV-4).
NEIGHBOUR_OFFSETS: tuple[Coord, ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def neighbour_coords(at: Coord) -> list[Coord]:
    q, r = at
    return [(q + dq, r + dr) for dq, dr in NEIGHBOUR_OFFSETS]


def activation_key(tile: Tile) -> tuple[int, int]:
    """Top-left to bottom-right: r ascending, then q + r/2 ascending (DV-4)."""
    q, r = tile.at
    return (r, 2 * q + r)


class Tile:
    """A hex in play in one player's ecosystem."""

    __slots__ = ("archaea", "at", "decimated", "kind", "neighbours", "track")

    def __init__(self, kind: HexType, at: Coord, archaea: int = 0) -> None:
        self.kind = kind
        self.at = at
        self.archaea = archaea
        self.decimated = False
        self.track = 0  # index into kind.track (tracks start on their first space)
        self.neighbours: list[Tile] = []  # the same player's adjacent tiles (DV-4)

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
