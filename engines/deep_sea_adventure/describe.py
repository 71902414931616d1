"""Deep Sea Adventure events in words, and the numbers the state pictures need."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core.describe import describe_generic
from engines.core.game import Event
from engines.deep_sea_adventure.edition import Edition

PLAIN = {
    "turn": "turn back to the submarine",
    "boost": "boost (one more air)",
    "swim": "swim on (no declaration)",
    "pick": "pick up the treasure",
    "pass": "leave the treasure",
}


def glossary(edition: Edition) -> dict[str, Any]:
    """Chip values by level and the air of a dive (DSA-1)."""
    return {"levels": [list(values) for values in edition.levels], "air": edition.air}


def _faces(dice: Any) -> str:
    return " + ".join(str(face) for face in dice or [])


def moment(snapshot: Mapping[str, Any]) -> str:
    """The dive and the turn within it; the dive alone between turns (the stacking orders
    given after a dive, DSA-5)."""
    dive = f"dive {snapshot.get('dive')}"
    turn = snapshot.get("turn") or {}
    return f"{dive}, turn {turn['number']}" if turn.get("number") else dive


def describe(event: Event, snapshot: Mapping[str, Any]) -> str:
    kind = event.get("type")
    if kind == "roll":
        return "roll " + _faces(event.get("dice"))
    if kind == "choose":
        return "move with " + _faces(event.get("dice"))
    if kind == "drop":
        # Counted from 1, as the stacking order below and players count (the log's chip 0).
        chip = event.get("chip")
        return f"drop carried chip {chip + 1 if isinstance(chip, int) else '?'}"
    if kind == "stack":
        order = event.get("order") or []
        return "stack the carried items in the order " + ", ".join(
            str(i + 1) if isinstance(i, int) else "?" for i in order
        )
    return PLAIN.get(kind, describe_generic(event, snapshot))
