"""Deep Vents events in words, and the names the state pictures need (the glossary).

Labels are read against the snapshot *before* the event, as a scorekeeper sees the table
when choosing: "take Anglerfish at position 3 (pay 2, 1 archaea on it)". Hexes in play are
named, never located by coordinates: "grow Yeti Crab", "place Goblin Shark east of Deep
Vent", and a second hex of a kind (DV-1: two copies of each) by a neighbour: "trigger Yeti
Crab (south-east of Deep Vent)".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engines.core.describe import describe_generic
from engines.core.game import Event
from engines.deep_vents.edition import Edition


def glossary(edition: Edition) -> dict[str, Any]:
    """Hex names, stack counts and the numbers the pictures show beyond the snapshot."""
    return {
        "hexes": {hex_id: kind.name for hex_id, kind in edition.hexes.items()},
        "stack": edition.stack_counts,
        "capacity": edition.hex_capacity,
        "payoff": edition.shortfall_payoff,
    }


# DV-4 pointy-top neighbours: the offset from a hex to the cell east of it, and so on.
# Listed in the order a cell prefers to be named by (east and west read most easily).
DIRECTIONS: tuple[tuple[tuple[int, int], str], ...] = (
    ((1, 0), "east"),
    ((-1, 0), "west"),
    ((1, -1), "north-east"),
    ((0, -1), "north-west"),
    ((0, 1), "south-east"),
    ((-1, 1), "south-west"),
)

Coord = tuple[int, int]


def _coord(coords: Any) -> Coord | None:
    if isinstance(coords, list) and len(coords) == 2 and all(type(c) is int for c in coords):
        return (coords[0], coords[1])
    return None


def _tiles(snapshot: Mapping[str, Any], seat: Any) -> list[Mapping[str, Any]]:
    for player in snapshot.get("players", []):
        if player["seat"] == seat:
            return player["hexes"]
    return []


def ecosystem_names(
    names: Mapping[str, str], tiles: Sequence[Mapping[str, Any]]
) -> dict[Coord, str]:
    """Each hex of one ecosystem by a name no other hex there shares: its hex name when it
    is the only one of its kind, else that name with a neighbour ("Yeti Crab (east of Deep
    Vent)"). Every ecosystem grows from its one Deep Vent (DV-4), so every hex is reached."""
    kinds = Counter(tile["hex"] for tile in tiles)
    kind_at = {c: tile["hex"] for tile in tiles if (c := _coord(tile["at"])) is not None}
    plain = {c: names.get(k, k) for c, k in kind_at.items() if kinds[k] == 1}
    named = dict(plain)
    left = [c for c in kind_at if c not in named]  # the snapshot lists them in DV-4 order
    while left:
        reached = {c: where for c in left if (where := _where(c, plain, named))}
        if not reached:
            break
        for c, where in reached.items():
            named[c] = f"{names.get(kind_at[c], kind_at[c])} ({where})"
        left = [c for c in left if c not in reached]
    for c in left:  # not connected to anything named: only a hand-made snapshot
        named[c] = f"{names.get(kind_at[c], kind_at[c])} (apart from the rest)"
    return named


def place_name(names: Mapping[str, str], tiles: Sequence[Mapping[str, Any]], coords: Any) -> str:
    """A hex of one ecosystem by its name ("Yeti Crab (east of Deep Vent)"), or a free cell
    by a neighbour ("east of Yeti Crab"), as the replay names them: never by coordinates,
    which players do not see. "" for a cell touching none of the ecosystem's hexes."""
    cell = _coord(coords)
    named = ecosystem_names(names, tiles)
    if cell is None:
        return ""
    return named.get(cell) or _where(cell, {}, named) or ""


def _where(cell: Coord, plain: Mapping[Coord, str], named: Mapping[Coord, str]) -> str | None:
    """The cell by one neighbour and a direction ("east of Deep Vent"), a neighbour with a
    plain hex name preferred; None when no neighbour is named yet."""
    for pool in (plain, named):
        for (dq, dr), direction in DIRECTIONS:
            neighbour = (cell[0] - dq, cell[1] - dr)
            if neighbour in pool:
                return f"{direction} of {pool[neighbour]}"
    return None


def cell_name(names: Mapping[str, str], snapshot: Mapping[str, Any], seat: Any, coords: Any) -> str:
    """A free cell of the seat's ecosystem by one neighbour: "east of Undersea Volcano"."""
    cell = _coord(coords)
    named = ecosystem_names(names, _tiles(snapshot, seat))
    where = _where(cell, {}, named) if cell is not None else None
    return where or "away from the ecosystem"


def _hex(names: Mapping[str, str], snapshot: Mapping[str, Any], seat: Any, coords: Any) -> str:
    cell = _coord(coords)
    named = ecosystem_names(names, _tiles(snapshot, seat))
    if cell in named:
        return named[cell]
    return "a hex not in the ecosystem"


def describe(edition: Edition, event: Event, snapshot: Mapping[str, Any]) -> str:
    names = {hex_id: kind.name for hex_id, kind in edition.hexes.items()}
    kind, seat = event.get("type"), event.get("seat")
    if kind == "bid":
        return f"bid {event.get('amount')}"
    if kind == "pass":
        # "For good" (DV-3), not "leave the bidding": told after "the bidding, Marina: ".
        return "pass for good"
    if kind == "take":
        position = event.get("position")
        row = snapshot.get("row", [])
        if isinstance(position, int) and 1 <= position <= len(row):
            offered = row[position - 1]
            name = names.get(offered["hex"], offered["hex"])
            extra = f", {offered['archaea']} archaea on it" if offered["archaea"] else ""
            return f"take {name} at position {position} (pay {position - 1}{extra})"
        return f"take position {position}"
    if kind == "place":
        pending = snapshot.get("pending") or {}
        placed = names.get(pending["hex"], "the hex") if pending.get("hex") else "the hex"
        return f"place {placed} {cell_name(names, snapshot, seat, event.get('hex'))}"
    if kind == "grow":
        text = f"grow {_hex(names, snapshot, seat, event.get('hex'))}"
        if "from" in event:
            text += f", taking from {_hex(names, snapshot, seat, event['from'])}"
        return text
    if kind == "trigger":
        pending = snapshot.get("pending") or {}
        again = " again" if pending.get("repeat") == event.get("hex") else ""
        text = f"trigger {_hex(names, snapshot, seat, event.get('hex'))}{again}"
        if "source" in event:
            text += f", paying with {_hex(names, snapshot, seat, event['source'])}"
        return text
    if kind == "end":
        return "end the turn"
    if kind == "shell":
        return "spend a shell (block half)" if event.get("use") else "take the attack (no shell)"
    if kind == "decimate":
        return f"decimate {_hex(names, snapshot, seat, event.get('hex'))}"
    if kind == "payoff":
        return "pay off a shortfall token"
    return describe_generic(event, snapshot)


def moment(snapshot: Mapping[str, Any]) -> str:
    """The game turn (all players' turns counted together, as the facts' game_turn), or the
    bidding for turn order before the first one (DV-3)."""
    turn = snapshot.get("turn")
    return f"turn {turn}" if isinstance(turn, int) and turn > 0 else "the bidding"


def describe_choice(edition: Edition, event: Event, snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """The label and what the choice is about on the picture: a hex or free cell of one
    ecosystem ({"seat", "at"}) or a position in the row ({"row"})."""
    choice: dict[str, Any] = {"label": describe(edition, event, snapshot)}
    kind = event.get("type")
    if kind in ("place", "grow", "trigger", "decimate") and _coord(event.get("hex")):
        choice["target"] = {"seat": event.get("seat"), "at": list(event["hex"])}
    elif kind == "take" and isinstance(event.get("position"), int):
        choice["target"] = {"row": event["position"]}
    return choice


def prompt(edition: Edition, snapshot: Mapping[str, Any]) -> str | None:
    """What the seat to act is asked, hexes by name (None: the generic wording will do)."""
    names = {hex_id: kind.name for hex_id, kind in edition.hexes.items()}
    pending = snapshot.get("pending") or {}
    seat = snapshot.get("current_seat")
    if snapshot.get("phase") == "place" and pending.get("hex"):
        return f"place the {names.get(pending['hex'], pending['hex'])}"
    if snapshot.get("phase") != "activate":
        return None
    asked = []
    if pending.get("repeat"):
        asked.append(f"trigger {_hex(names, snapshot, seat, pending['repeat'])} again")
    if pending.get("next"):
        asked.append(f"grow or trigger {_hex(names, snapshot, seat, pending['next'])}")
    else:
        asked.append("end the turn")
    return " or ".join(asked)
