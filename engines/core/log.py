"""Reading logs safely: bytes or text in, a validated envelope out.

Hostile input must end in a MalformedLogError naming the problem, never in an
unhandled exception: invalid UTF-8, invalid JSON, NaN, absurd numbers, deep
nesting, a wrong format or game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

from engines.core.errors import MalformedLogError
from engines.core.schema import FORMAT, envelope_schema, validate

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


def loads(data: bytes | str) -> Any:
    """Parse one JSON document, mapping every failure to MalformedLogError."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedLogError(f"not UTF-8: invalid byte at offset {exc.start}") from None
    if not data.strip():
        raise MalformedLogError("empty log")
    try:
        return json.loads(
            data,
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


def check_header(log: Any) -> dict[str, Any]:
    """Check that a log is a JSON object in this format; returns the log."""
    if not isinstance(log, dict):
        raise MalformedLogError(f"a log is a JSON object, not {type(log).__name__}")
    if log.get("format") != FORMAT:
        raise MalformedLogError(
            f"unknown format {log.get('format')!r}; expected {FORMAT!r}", field="format"
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
