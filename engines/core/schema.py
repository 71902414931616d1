"""JSON Schema of the log format `deepsea-log/1` (the envelope shared by all games).

A game composes its full schema with `log_schema`, giving the schemas of its
setup, its events and its ruleset options; `python -m engines schema GAME`
prints it and `docs/schemas/` holds the published copies.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import fastjsonschema

from engines.core import schema_fast
from engines.core.schema_errors import FieldRules, explain

FORMAT = "deepsea-log/1"
SCHEMA_DRAFT = "https://json-schema.org/draft-07/schema#"

_SEAT = {"type": "integer", "minimum": 0, "maximum": 5}
_NUMBER = {"type": "number"}


def envelope_schema() -> dict[str, Any]:
    """The game-independent part: checked before the game is known."""
    return {
        "$schema": SCHEMA_DRAFT,
        "title": "Deep Sea game log, format deepsea-log/1",
        "type": "object",
        "required": ["format", "game", "players", "setup", "events"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": FORMAT},
            "game": {"type": "string"},
            "ruleset": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "name": {"type": "string"},
                    "edition": {"type": "string"},
                    "options": {"type": "object"},
                },
            },
            "players": {
                "type": "array",
                "minItems": 1,
                "maxItems": 6,
                "items": {
                    "type": "object",
                    "required": ["name"],
                    "additionalProperties": False,
                    "properties": {
                        "name": {"type": "string", "minLength": 1, "maxLength": 100},
                        "strategy": {"type": "string", "maxLength": 100},
                    },
                },
            },
            "setup": {"type": "object"},
            "events": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["type"],
                    "properties": {"type": {"type": "string"}, "seat": _SEAT},
                },
            },
            "result": {
                "type": "object",
                "required": ["scores"],
                "additionalProperties": False,
                "properties": {
                    "scores": {"type": "array", "items": _NUMBER},
                    "winners": {"type": "array", "items": _SEAT, "uniqueItems": True},
                },
            },
            "meta": {
                "description": "Free-form facts about the game (date, table, event); not replayed.",
                "type": "object",
            },
        },
    }


def log_schema(
    game_id: str,
    *,
    setup: dict[str, Any],
    events: list[dict[str, Any]],
    options: dict[str, Any],
) -> dict[str, Any]:
    """The full schema of one game's logs: the envelope narrowed to that game."""
    schema = envelope_schema()
    schema["title"] = f"{game_id} log, format {FORMAT}"
    props = schema["properties"]
    props["game"] = {"const": game_id}
    props["ruleset"]["properties"]["options"] = {
        "type": "object",
        "additionalProperties": False,
        "properties": options,
    }
    props["setup"] = setup
    # anyOf, not oneOf: event types are distinct consts, and anyOf stops at the first match.
    props["events"] = {"type": "array", "items": {"anyOf": events}}
    return schema


# id of a game's schema -> (that schema, it with the events' items left unchecked).
_without_event_items: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}


def without_event_items(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` with `events` any array: the envelope, setup and result checked, each event
    left to a state that checks it as it applies it (Game.checks_event_shapes). The same
    object for the same schema, so that `validate` finds its compiled check at once."""
    seen = _without_event_items.get(id(schema))
    if seen is None or seen[0] is not schema:
        properties = {**schema["properties"], "events": {"type": "array"}}
        seen = (schema, {**schema, "properties": properties})
        _without_event_items[id(schema)] = seen
    return seen[1]


@cache
def _compiled(key: str, schema_json: str) -> Any:
    import json

    return fastjsonschema.compile(json.loads(schema_json))


# key -> (the schema object last seen, its yes/no check, its validator): a game that
# returns the same schema object every time skips serialising it to find them.
_last_seen: dict[str, tuple[dict[str, Any], Any, Any]] = {}


def validate(schema: dict[str, Any], data: Any, key: str, fields: FieldRules | None = None) -> None:
    """Validate against a schema, raising MalformedLogError naming the field (and, inside
    an event, its index, seat and the ruling `fields` gives for that field).

    The fast yes/no check (schema_fast) decides; the validator runs only for a log it
    refuses, to say why.
    """
    import json

    seen = _last_seen.get(key)
    if seen is None or seen[0] is not schema:
        schema_json = json.dumps(schema, sort_keys=True)
        seen = (schema, schema_fast.accepts(schema), _compiled(key, schema_json))
        _last_seen[key] = seen
    if seen[1](data):
        return
    validator = seen[2]
    try:
        validator(data)
    except fastjsonschema.JsonSchemaValueException as exc:
        events = schema.get("properties", {}).get("events", {}).get("items")
        raise explain(exc, data, events, fields or {}) from None
