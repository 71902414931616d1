"""The JSON Schema of Deep Vents logs: the shared envelope plus this game's parts.

Events have one flat schema: `type` from a fixed list, and each other field
typed and allowed only on the event types that use it (`dependencies`). Which
fields an event type *requires* is checked by the engine (a MalformedLogError
naming the field), because a per-type `oneOf`/`if` makes the validator raise
and catch an exception for every non-matching branch of every event: several
times slower than replaying the game itself.
"""

from __future__ import annotations

from typing import Any

from engines.core.schema import log_schema
from engines.core.schema_errors import FieldRule
from engines.deep_vents.edition import editions

GAME_ID = "deep-vents"
_SEAT = {"type": "integer", "minimum": 0, "maximum": 3}
# Any pair of integers; coordinates where the seat has no hex are the engine's to refuse.
_COORD = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}

# event type -> (what it records, its required fields, its optional fields)
EVENT_TYPES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "grow": ("grow the next hex in activation order (DV-4, DV-6)", ("hex",), ("from",)),
    "trigger": (
        "trigger the next hex, or the hex just triggered again (a repetition, DV-6)",
        ("hex",),
        ("source",),
    ),
    "shell": ("the attacked seat spends a shell on this attack or not (DV-7)", ("use",), ()),
    "take": ("take a hex from the row; position 1 is free (DV-2)", ("position",), ()),
    "place": ("place the taken hex touching your ecosystem (DV-4)", ("hex",), ()),
    "end": ("finish the turn once every hex has been activated (DV-6, DV-8)", (), ()),
    "decimate": (
        "decimate one of your own hexes (Undersea Volcano DV-9, Bull Cachalot DV-11)",
        ("hex",),
        (),
    ),
    "payoff": ("pay 10 archaea to return a shortfall token, at any moment (DV-8)", (), ()),
    "bid": ("bid for first player (starting-bid ruleset, DV-3)", ("amount",), ()),
    "pass": ("leave the bidding for good (DV-3)", (), ()),
}

EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "hex": {**_COORD, "description": "axial [q, r] of your hex; each Deep Vent is at [0, 0]"},
    "from": {**_COORD, "description": "Gulper Eel grow: the adjacent hex it empties"},
    "source": {
        **_COORD,
        "description": "Colossal Squid trigger: the hex (itself, the default, or adjacent) "
        "whose archaea pay (DV-12)",
    },
    "use": {"type": "boolean", "description": "shell: true to spend one shell"},
    "position": {"type": "integer", "minimum": 1, "maximum": 6, "description": "take: 1-6"},
    "amount": {"type": "integer", "minimum": 0, "maximum": 100, "description": "bid"},
}


_HEX = "a hex is an axial [q, r] pair of whole numbers, your Deep Vent at [0, 0]"
# What each event field holds and the ruling behind it, for schema errors (schema_errors).
FIELD_RULES = {
    "position": FieldRule("DV-2", "the row holds 6 hexes, positions 1 to 6"),
    "hex": FieldRule("DV-4", _HEX),
    "from": FieldRule("DV-5", "a Gulper Eel grows from an adjacent hex: " + _HEX),
    "source": FieldRule("DV-12", "a Colossal Squid pays from itself or an adjacent hex: " + _HEX),
    "use": FieldRule("DV-7", "true to spend a shell on this attack, false not to"),
    "amount": FieldRule("DV-3", "a bid is a whole number of archaea, 0 or more"),
    "seat": FieldRule("DV-16", "seats are 0 to 3 in the order the log lists players"),
}


def event_schema() -> dict[str, Any]:
    lines = []
    for kind, (what, required, optional) in EVENT_TYPES.items():
        fields = [*required, *(f"{name}?" for name in optional)]
        lines.append(f"{kind} {{{', '.join(fields)}}}: {what}")
    users = {
        name: [k for k, (_, req, opt) in EVENT_TYPES.items() if name in req or name in opt]
        for name in EVENT_FIELDS
    }
    return {
        "description": "One decision, by `seat`. " + "; ".join(lines) + ".",
        "type": "object",
        "required": ["type", "seat"],
        "additionalProperties": False,
        "properties": {"type": {"enum": list(EVENT_TYPES)}, "seat": _SEAT, **EVENT_FIELDS},
        "dependencies": {
            name: {"properties": {"type": {"enum": kinds}}} for name, kinds in users.items()
        },
    }


def setup_schema() -> dict[str, Any]:
    hex_ids = sorted({h for e in editions().values() for h in e.stack_counts})
    return {
        "type": "object",
        "required": ["stack"],
        "additionalProperties": False,
        "properties": {
            "stack": {
                "description": (
                    "The shuffled hexes from the top: positions 1-6 of the first row, then "
                    "the order they are revealed (DV-2). Hexes never revealed may be left out."
                ),
                "type": "array",
                "items": {"enum": hex_ids},
                "minItems": 1,
                "maxItems": max(e.stack_size for e in editions().values()),
            },
            "opening_bidder": {**_SEAT, "description": "starting-bid: the seat that opens (DV-3)"},
            "first_player": {**_SEAT, "description": "standard: the first player (default 0)"},
        },
    }


def options_schema() -> dict[str, Any]:
    return {
        "row_size": {
            "enum": [6, 5],
            "description": "hexes on offer each turn (DV-2): 6 (default) or 5",
        }
    }


def deep_vents_schema() -> dict[str, Any]:
    schema = log_schema(GAME_ID, setup=setup_schema(), events=[], options=options_schema())
    schema["properties"]["events"] = {"type": "array", "items": event_schema()}
    schema["properties"]["players"]["minItems"] = 2
    schema["properties"]["players"]["maxItems"] = 4
    return schema
