"""Reading logs safely: bytes or text in, a validated envelope out.

Hostile input must end in a MalformedLogError naming the problem, never in an
unhandled exception: invalid UTF-8, invalid JSON, NaN, absurd numbers, deep
nesting, duplicate keys, strings no database stores (NUL, lone surrogates), a
wrong format or game.

Two readers give the same answers: orjson for the logs where that is provable (most of
them, several times faster), the stdlib parser with a hook per rule for the rest.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

import orjson

from engines.core.errors import MalformedLogError
from engines.core.schema import FORMAT, envelope_schema, validate

# What a parsed JSON value was, in JSON's words.
JSON_TYPES = {
    dict: "an object",
    list: "an array",
    type(None): "null",
    bool: "a boolean",
    int: "a number",
    float: "a number",
}
# A number longer than this is no score or bid of any game here.
MAX_NUMBER_DIGITS = 30


def _reject_constant(name: str) -> Any:
    raise MalformedLogError(f"{name} is not allowed in a log (JSON has no such number)")


def _parse_int(text: str) -> int:
    if len(text) > MAX_NUMBER_DIGITS:
        raise MalformedLogError(f"number with {len(text)} digits is too long")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS:
        raise MalformedLogError(f"number with {len(text)} characters is too long")
    return float(text)


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # JSON parsers disagree on which of two equal keys wins, so a log that has them means
    # different things to different readers: refuse it rather than pick one.
    obj = dict(pairs)
    if len(obj) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise MalformedLogError(f"duplicate key {json.dumps(key)} in a JSON object")
            seen.add(key)
    return obj


def _unstorable(text: str) -> str | None:
    """Why a decoded string cannot be stored or hashed, or None when it can."""
    if "\x00" in text:
        return "contains a NUL character (U+0000)"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"contains a lone surrogate (U+{ord(text[exc.start]):04X})"
    return None


def field_path(path: tuple[str | int, ...]) -> str:
    """`players[1].name`, or `event 12 field "hex"` inside the events."""
    if len(path) >= 2 and path[0] == "events" and isinstance(path[1], int):
        rest = field_path(path[2:])
        return f'event {path[1]} field "{rest}"' if rest else f"event {path[1]}"
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def check_strings(value: Any) -> None:
    """Refuse any string (key or value) that PostgreSQL or UTF-8 cannot hold, naming where.

    Walks with a stack, not recursion: the parser accepts nesting deeper than Python's
    recursion limit allows a recursive walk.
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            problem = _unstorable(item)
            if problem:
                raise MalformedLogError(f"string {problem}", field=field_path(path) or "log")
        elif isinstance(item, dict):
            for key in item:
                problem = _unstorable(key)
                if problem:
                    raise MalformedLogError(f"a key {problem}", field=field_path(path) or "log")
            # Reversed, so the first bad string in document order is the one reported.
            stack.extend((item[key], (*path, key)) for key in reversed(item))
        elif isinstance(item, list):
            stack.extend((item[i], (*path, i)) for i in reversed(range(len(item))))


# Bytes that can be part of a JSON number, mapped to "0"; every other byte to a space.
_NUMBER_BYTES = bytes(0x30 if chr(b) in "0123456789+-.eE" else 0x20 for b in range(256))
# A run this long may be an integer beyond 64 bits (orjson makes those floats) or a number
# over MAX_NUMBER_DIGITS: such logs take the exact reader.
_LONG_NUMBER = b"0" * 19


def loads(data: bytes | str) -> Any:
    """Parse one JSON document, mapping every failure to MalformedLogError.

    Most logs are read by orjson (issue 14: the stdlib with its hooks was 16% of
    verification). It is used only where its answer is provably the exact reader's
    (`_orjson_is_exact`): no backslash (so no escapes, hence no NUL, no lone surrogate and
    no quote inside a string), no long number, and as many keys kept as the text has (so
    no duplicate key). Anything else, and every error, goes to the exact reader, so the
    value and the error message are always the same.
    """
    raw = data
    if isinstance(raw, str):
        try:
            raw = raw.encode("utf-8")
        except UnicodeEncodeError:
            return _loads_exactly(data)
    if b"\\" not in raw:
        try:
            parsed = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return _loads_exactly(data)
        if _orjson_is_exact(raw, parsed):
            return parsed
    return _loads_exactly(data)


def _orjson_is_exact(raw: bytes, parsed: Any) -> bool:
    """True when orjson read `raw` (JSON without backslashes) as the exact reader would.

    orjson writes the parsed value back with the same strings (without escapes they are
    copied as they are). Written back byte for byte as `raw` (logs stored as the engine
    writes them: compact, in order), nothing can differ: a number it read otherwise or a
    key it dropped would be written differently. Otherwise: no run of number characters
    long enough to be an integer beyond 64 bits (orjson makes those floats) or a number
    over MAX_NUMBER_DIGITS, and one colon per key kept as the text has (a colon is either
    inside a string or after a key), so no key was dropped.
    """
    try:
        written = orjson.dumps(parsed)
    except orjson.JSONEncodeError:  # nested deeper than orjson writes (it reads deeper)
        return False
    if written == raw:
        return True
    if _LONG_NUMBER in raw.translate(_NUMBER_BYTES):
        return False
    return raw.count(b":") == written.count(b":")


def _loads_exactly(data: bytes | str) -> Any:
    """The reference reader: the stdlib parser with a hook for every rule above."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedLogError(f"not UTF-8: invalid byte at offset {exc.start}") from None
    if not data.strip():
        raise MalformedLogError("empty log")
    try:
        parsed = json.loads(
            data,
            object_pairs_hook=_refuse_duplicate_keys,
            parse_constant=_reject_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except json.JSONDecodeError as exc:
        raise MalformedLogError(
            f"invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise MalformedLogError("JSON nested too deeply") from None
    # In ASCII text only a \u escape can make a NUL or a lone surrogate (JSON forbids raw
    # control characters), so most logs skip the walk.
    if "\\u" in data or not data.isascii():
        check_strings(parsed)
    return parsed


def check_header(log: Any) -> dict[str, Any]:
    """Check that a log is a JSON object in this format; returns the log."""
    if not isinstance(log, dict):
        raise MalformedLogError(f"a log is a JSON object, not {type(log).__name__}")
    if log.get("format") != FORMAT:
        raise MalformedLogError(
            f"unknown format {log.get('format')!r}; expected {FORMAT!r}", field="format"
        )
    game = log.get("game")
    if not isinstance(game, str):
        if "game" not in log:
            raise MalformedLogError('no game given (a string such as "deep-vents")', field="game")
        given = JSON_TYPES.get(type(game), "a value")
        raise MalformedLogError(
            f'the game is a string such as "deep-vents", not {given}', field="game"
        )
    return log


def check_envelope(log: Any) -> dict[str, Any]:
    """Check the game-independent envelope; returns the log."""
    validate(envelope_schema(), check_header(log), "envelope")
    return log


def iter_jsonl(stream: IO[bytes]) -> Iterator[tuple[int, bytes]]:
    """Yield (line number, raw line) for every non-blank line of a JSON Lines stream.

    Reads line by line so a batch of thousands of logs never sits in memory whole.
    """
    for number, line in enumerate(stream, start=1):
        if line.strip():
            yield number, line


def dumps(log: dict[str, Any]) -> str:
    """One log as a single JSON line (the JSONL form)."""
    return json.dumps(log, separators=(",", ":"), ensure_ascii=False)
