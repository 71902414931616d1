"""JSON Schema of Deep Sea Adventure and Boost logs (setup, events, options)."""

from __future__ import annotations

from functools import cache
from typing import Any

from engines.core.schema import log_schema
from engines.core.schema_errors import FieldRule

SEAT = {"type": "integer", "minimum": 0, "maximum": 5}
FACE = {"type": "integer", "minimum": 0, "maximum": 99}

SETUP = {
    "type": "object",
    "required": ["chips"],
    "additionalProperties": False,
    "properties": {
        "chips": {
            "description": "DSA-1: the dealt chip values in path order, nearest the submarine "
            "first (8 of level 1, then 8 each of levels 2, 3, 4).",
            "type": "array",
            "maxItems": 200,
            "items": {"type": "integer", "minimum": 0, "maximum": 999},
        }
    },
}


# What each event field holds and the ruling behind it, for schema errors (schema_errors).
FIELD_RULES = {
    "dice": FieldRule("DSA-1", "a roll lists the face of each die rolled (whole numbers)"),
    "chip": FieldRule("DSA-2", "a carried chip is numbered from 0, the first picked up"),
    "order": FieldRule("DSA-5", "a stacking order lists carried chips by number, from 0"),
    "seat": FieldRule("DSA-8", "seats are 0 to 5 in the order the log lists players"),
}
BOOST_FIELD_RULES = {
    **FIELD_RULES,
    "dice": FieldRule("B-1", "a roll lists the face of each die rolled (whole numbers)"),
}


def _only_for(*kinds: str) -> dict[str, Any]:
    return {"properties": {"type": {"enum": list(kinds)}}}


def _event_schema(boost: bool) -> dict[str, Any]:
    """One event schema whose fields are tied to their types by `dependencies`.

    A oneOf per event type costs a failed validation per alternative on every
    event; this form validates a log several times faster. The engine reports a
    missing field (a roll without dice) with the event index and rule.
    """
    dice_events = ["roll", "choose"] if boost else ["roll"]
    declarations = ["turn", "boost", "swim"] if boost else ["turn", "swim"]
    kinds = [*declarations, *dice_events, "pick", "drop", "pass", "stack"]
    return {
        "type": "object",
        "description": (
            "turn: turn back (DSA-4); "
            + ("boost: spend 1 air, sum all three boost dice (B-3); " if boost else "")
            + "swim: roll without declaring (optional); roll (chance): the faces rolled, "
            "in die order (DSA-1, B-1); "
            + ("choose: the two faces used from a roll of three (B-2); " if boost else "")
            + "pick: pick up the chip or stack stood on; drop: put the carried chip "
            "`chip` on the blank stood on; pass: do nothing in the treasure step; "
            "stack: right after a dive, the order a drowned diver stacks its chips in "
            "(DSA-5; optional, else as carried)."
        ),
        "required": ["type", "seat"],
        "additionalProperties": False,
        "properties": {
            "type": {"enum": kinds},
            "seat": SEAT,
            "dice": {
                "type": "array",
                "minItems": 2,
                "maxItems": 3 if boost else 2,
                "items": FACE,
            },
            "chip": {
                "description": "index into the carried chips, 0 = first picked up",
                "type": "integer",
                "minimum": 0,
                "maximum": 99,
            },
            "order": {
                "description": "indexes into the drowned diver's carried chips",
                "type": "array",
                "maxItems": 99,
                "items": {"type": "integer", "minimum": 0, "maximum": 99},
            },
        },
        "dependencies": {
            "dice": _only_for(*dice_events),
            "chip": _only_for("drop"),
            "order": _only_for("stack"),
        },
    }


NEXT_FIRST_PLAYER_OPTION = {
    "description": "DSA-6: who starts the next dive.",
    "enum": ["last-returned", "deepest-drowned"],
}


def _with_events(schema: dict[str, Any], boost: bool) -> dict[str, Any]:
    # One schema for every event: its own error messages, not oneOf's "0 matches found".
    schema["properties"]["events"]["items"] = _event_schema(boost)
    return schema


@cache
def dsa_schema(game_id: str) -> dict[str, Any]:
    schema = log_schema(
        game_id,
        setup=SETUP,
        events=[],
        options={"next_first_player": NEXT_FIRST_PLAYER_OPTION},
    )
    return _with_events(schema, boost=False)


@cache
def boost_schema(game_id: str) -> dict[str, Any]:
    schema = log_schema(
        game_id,
        setup=SETUP,
        events=[],
        options={
            "next_first_player": NEXT_FIRST_PLAYER_OPTION,
            "choose_two": {
                "description": "B-2: roll three boost dice, use two.",
                "type": "boolean",
            },
            "boost": {"description": "B-3: spend 1 air to sum all three.", "type": "boolean"},
            "expansion_dice": {
                "description": "B-4: not defined by the source; true is refused.",
                "type": "boolean",
            },
        },
    )
    return _with_events(schema, boost=True)
