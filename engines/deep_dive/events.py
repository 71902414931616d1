"""The log events of Deep Dive and their JSON Schema.

Chance events: `dive` (colour die, DD-2), `shark` (shark die, DD-3), `open` (what the
opened shells were, DD-4). Decisions: `surface` or `stay` (DD-3).
"""

from __future__ import annotations

from typing import Any

from engines.core.game import Event
from engines.core.schema_errors import FieldRule

MAX_SEAT = 3  # 2-4 players
MAX_SHELLS = 100  # far above any pool; keeps hostile numbers out of the engine


def dive(seat: int, colour: str) -> Event:
    return {"type": "dive", "seat": seat, "colour": colour}


def shark(seat: int, colour: str) -> Event:
    return {"type": "shark", "seat": seat, "colour": colour}


def surface(seat: int) -> Event:
    return {"type": "surface", "seat": seat}


def stay(seat: int) -> Event:
    return {"type": "stay", "seat": seat}


def open_shells(seat: int, white: int, black: int, empty: int) -> Event:
    return {"type": "open", "seat": seat, "white": white, "black": black, "empty": empty}


_COUNT = "a count of opened shells, 0 or more"
# What each event field holds and the ruling behind it, for schema errors (schema_errors).
FIELD_RULES = {
    "colour": FieldRule("DD-1", "the dice show red, orange, yellow, green, blue or purple"),
    "white": FieldRule("DD-4", _COUNT),
    "black": FieldRule("DD-4", _COUNT),
    "empty": FieldRule("DD-4", _COUNT),
    "seat": FieldRule("DD-6", "seats are 0 to 3 in the order the log lists players"),
}


def _event_schema(kind: str, description: str, **fields: dict[str, Any]) -> dict[str, Any]:
    return {
        "description": description,
        "type": "object",
        "required": ["type", "seat", *fields],
        "additionalProperties": False,
        "properties": {
            "type": {"const": kind},
            "seat": {"type": "integer", "minimum": 0, "maximum": MAX_SEAT},
            **fields,
        },
    }


def event_schemas() -> list[dict[str, Any]]:
    colour = {"type": "string", "minLength": 1, "maxLength": 40}
    count = {"type": "integer", "minimum": 0, "maximum": MAX_SHELLS}
    return [
        _event_schema(
            "dive", "The colour die roll: the diver moves there and draws (DD-2)", colour=colour
        ),
        _event_schema("shark", "The starting player's shark die roll (DD-3)", colour=colour),
        _event_schema("surface", "The diver leaves the water and opens its shells (DD-3)"),
        _event_schema("stay", "The diver stays in the water for another pass (DD-3)"),
        _event_schema(
            "open",
            "What the surfacing diver's shells were (DD-4, DD-5)",
            white=count,
            black=count,
            empty=count,
        ),
    ]


SETUP_SCHEMA: dict[str, Any] = {
    "description": "Nothing is dealt: the removed white pearls follow from the player count (DD-1)",
    "type": "object",
    "additionalProperties": False,
    "properties": {},
}
