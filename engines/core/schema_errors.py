"""JSON Schema failures told the way a scorekeeper reads them.

The validator reports a path (`events.4.position`) and a generic sentence ("must be
smaller than or equal to 6", or for a choice of event schemas "cannot be validated by any
definition"). Every failure inside an event becomes a MalformedLogError carrying the
event's index and seat, the field, the ruling that decides the field (from the game's
`FieldRule`s) and a sentence: "position 7 does not exist; the row holds 6 hexes [DV-2]".

This is the one place that maps schema failures to events, so a faster validator
(issue 14) only has to produce the same (path, schema rule, value) triple.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import fastjsonschema

from engines.core.errors import MalformedLogError

# Schema keywords that say a value lies outside what exists (a position 7, a seat -1).
OUT_OF_RANGE = {"minimum", "maximum", "enum", "const", "exclusiveMinimum", "exclusiveMaximum"}


@dataclass(frozen=True)
class FieldRule:
    """What an event field holds, and the ruling that says so."""

    rule: str | None
    hint: str  # "the row holds 6 hexes": completes "position 7 does not exist; ..."


FieldRules = Mapping[str, FieldRule]
SEAT_RULE = FieldRule(None, "seats are numbered from 0 in the order the log lists players")


def explain(
    exc: fastjsonschema.JsonSchemaValueException,
    log: Any,
    event_schema: Mapping[str, Any] | None,
    fields: FieldRules,
) -> MalformedLogError:
    """The MalformedLogError for a schema failure anywhere in a log."""
    # The validator's path starts with "data" and spells list indexes as strings.
    path = [int(part) if part.isdigit() else part for part in map(str, exc.path[1:])]
    events = log.get("events") if isinstance(log, dict) else None
    if len(path) >= 2 and path[0] == "events" and isinstance(events, list):
        index = path[1]
        if isinstance(index, int) and 0 <= index < len(events):
            return _event_error(exc, index, events[index], path[2:], event_schema, fields)
    where = ".".join(str(part) for part in path) or "log"
    if exc.rule == "additionalProperties" and isinstance(exc.value, dict):
        # The validator names the extras as a Python set, in an order that varies between
        # runs: name them sorted, and the allowed fields in the schema's own order.
        allowed = list((exc.definition or {}).get("properties", {}))
        extra = sorted(str(name) for name in exc.value if name not in allowed)
        takes = f"it takes {', '.join(allowed)}" if allowed else "it takes no fields"
        named = ", ".join(repr(name) for name in extra)
        verb = "is not a field" if len(extra) == 1 else "are not fields"
        return MalformedLogError(f"{named} {verb} of {where}; {takes}", field=where)
    return MalformedLogError(f"{_plain(exc)} (JSON Schema)", field=where)


def _event_error(
    exc: fastjsonschema.JsonSchemaValueException,
    index: int,
    event: Any,
    path: Sequence[Any],
    event_schema: Mapping[str, Any] | None,
    fields: FieldRules,
) -> MalformedLogError:
    seat = event.get("seat") if isinstance(event, dict) else None
    seat = seat if type(seat) is int and seat >= 0 else None

    def error(message: str, field: str | None = None, rule: str | None = None) -> MalformedLogError:
        located = f"events.{index}.{field}" if field else f"events.{index}"
        return MalformedLogError(message, index=index, seat=seat, field=located, rule=rule)

    if not isinstance(event, dict):
        return error(f"an event is a JSON object with a type and a seat, not {_json(event)}")
    kind = event.get("type")
    branches = (event_schema or {}).get("anyOf")
    if branches is not None and not path:
        # One schema per event type: validate against the one the type names.
        branch = next((b for b in branches if _const_type(b) == kind), None)
        if branch is None:
            return _unknown_type(error, kind, [_const_type(b) for b in branches])
        try:
            _compiled(json.dumps(branch, sort_keys=True))(event)
        except fastjsonschema.JsonSchemaValueException as inner:
            inner_path = [int(p) if p.isdigit() else p for p in map(str, inner.path[1:])]
            return _event_error(inner, index, event, inner_path, branch, fields)
        return error(_plain(exc))  # the branch accepts it alone: report what the validator said
    field = str(path[0]) if path else None
    if exc.rule == "required":
        missing = next((name for name in exc.rule_definition if name not in event), None)
        if missing == "seat":
            seat_rule = fields.get("seat", SEAT_RULE)
            return error(
                f"the event names no seat: every event says whose it is ({seat_rule.hint})",
                "seat",
                seat_rule.rule,
            )
        if missing == "type":
            return error("the event has no type", "type")
        rule = fields.get(str(missing), FieldRule(None, ""))
        hint = f" ({rule.hint})" if rule.hint else ""
        return error(f"a {kind} event needs {missing!r}{hint}", str(missing), rule.rule)
    if exc.rule == "additionalProperties":
        known = set((event_schema or {}).get("properties", {})) or set(exc.definition["properties"])
        extra = next((name for name in event if name not in known), None)
        return error(f"{extra!r} is not a field of a {kind} event", extra)
    if field == "type":
        types = list(((event_schema or {}).get("properties", {}).get("type") or {}).get("enum", []))
        dependant = _misplaced_field(event, event_schema)
        if kind in types and dependant is not None:
            return error(f"{dependant!r} is not a field of a {kind} event", dependant)
        return _unknown_type(error, kind, types)
    if field is None:
        return error(_plain(exc))
    field_rule = SEAT_RULE if field == "seat" and field not in fields else fields.get(field)
    value = event.get(field)
    whole_value = len(path) == 1
    verdict = "does not exist" if whole_value and exc.rule in OUT_OF_RANGE else "is not valid"
    hint = field_rule.hint if field_rule is not None else _plain(exc)
    ruling = field_rule.rule if field_rule else None
    return error(f"{field} {_json(value)} {verdict}; {hint}", field, ruling)


def _unknown_type(error: Any, kind: Any, known: list[Any]) -> MalformedLogError:
    names = ", ".join(str(name) for name in known if name is not None)
    return error(f"there is no {_json(kind)} event; known: {names}", "type")


def _misplaced_field(event: Mapping[str, Any], event_schema: Mapping[str, Any] | None) -> Any:
    """The field an event carries that its type may not (a `dependencies` failure)."""
    for name, needs in ((event_schema or {}).get("dependencies") or {}).items():
        kinds = needs.get("properties", {}).get("type", {}).get("enum", [])
        if name in event and event.get("type") not in kinds:
            return name
    return None


def _const_type(branch: Mapping[str, Any]) -> Any:
    return branch.get("properties", {}).get("type", {}).get("const")


def _plain(exc: fastjsonschema.JsonSchemaValueException) -> str:
    """The validator's sentence without its "data.events[4].position" prefix."""
    name = exc.name or "data"
    message = exc.message
    return message[len(name) :].strip() if message.startswith(name) else message


def _json(value: Any) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


@cache
def _compiled(schema_json: str) -> Any:
    return fastjsonschema.compile(json.loads(schema_json))
