"""Deep Vents events in words, and the names the state pictures need (the glossary).

Labels are read against the snapshot *before* the event, as a scorekeeper sees the table
when choosing: "take Anglerfish at position 3 (pay 2, 1 archaea on it)".
"""

from __future__ import annotations

from collections.abc import Mapping
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


def _at(coords: Any) -> str:
    return f"[{coords[0]}, {coords[1]}]" if isinstance(coords, list) and len(coords) == 2 else "?"


def _hex(names: Mapping[str, str], snapshot: Mapping[str, Any], seat: Any, coords: Any) -> str:
    for player in snapshot.get("players", []):
        if player["seat"] == seat:
            for tile in player["hexes"]:
                if tile["at"] == coords:
                    return f"{names.get(tile['hex'], tile['hex'])} at {_at(coords)}"
    return f"the hex at {_at(coords)}"


def describe(edition: Edition, event: Event, snapshot: Mapping[str, Any]) -> str:
    names = {hex_id: kind.name for hex_id, kind in edition.hexes.items()}
    kind, seat = event.get("type"), event.get("seat")
    if kind == "bid":
        return f"bid {event.get('amount')}"
    if kind == "pass":
        return "pass (leave the bidding)"
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
        return f"place at {_at(event.get('hex'))}"
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
        return f"seat {seat} pays off a shortfall token"
    return describe_generic(event, snapshot)
