"""Typed verification errors shared by every game engine.

Every problem with a log is one of these, never a bare exception, so callers
(the CLI, the Django workers, the API) can report it precisely: which event,
which seat, what was wrong and which rule or ruling decides it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

# A seat as seat_label writes it into a message, for name_seats to read back ("no seat 5 at
# a table of 4" writes a log's own seat number, out of range: not one of seat_label's).
_SEAT_IN_TEXT = re.compile(r"(?<!no )\bseat (\d+)\b")


def seat_label(seat: object) -> str:
    """A seat as players read it: counted from 1 ("seat 1" is a log's seat 0), as on the
    table's seating; a value that is not a seat index is shown as it was written."""
    return f"seat {seat + 1}" if type(seat) is int and seat >= 0 else f"seat {seat!r}"


def name_seats(text: str, names: Sequence[str]) -> str:
    """A message with each seat seat_label wrote in it ("seat 2") named by its player
    ("Nemo"), for pages that show a table's players by name; a seat with no name is left."""

    def named(match: re.Match[str]) -> str:
        number = int(match.group(1))
        name = names[number - 1] if 1 <= number <= len(names) else ""
        return name or match.group(0)

    return _SEAT_IN_TEXT.sub(named, text)


class LogError(ValueError):
    """A game log cannot be accepted. `index` and `seat` are the log's (from 0, as its
    events and fields count); the text reads the seat from 1 (`seat_label`)."""

    kind = "invalid"

    def __init__(
        self,
        message: str,
        *,
        index: int | None = None,
        seat: int | None = None,
        rule: str | None = None,
        field: str | None = None,
    ) -> None:
        self.message = message
        self.index = index
        self.seat = seat
        self.rule = rule
        self.field = field
        super().__init__(str(self))

    def __str__(self) -> str:
        where = []
        if self.index is not None:
            where.append(f"event {self.index}")
            if self.seat is not None:
                where.append(f"({seat_label(self.seat)})")
        elif self.field:
            where.append(self.field)
        text = f"{' '.join(where)}: {self.message}" if where else self.message
        return f"{text} [{self.rule}]" if self.rule else text

    def at(self, index: int, seat: int | None) -> LogError:
        """Return this error located at an event (replay adds the position)."""
        self.index = index
        self.seat = seat if self.seat is None else self.seat
        self.args = (str(self),)
        return self

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "message": self.message,
            "index": self.index,
            "seat": self.seat,
            "rule": self.rule,
            "field": self.field,
            "text": str(self),
        }


class MalformedLogError(LogError):
    """Not a readable log: bad JSON, wrong envelope, fails the JSON Schema."""

    kind = "malformed"


class UnsupportedRulesetError(LogError):
    """The log asks for a ruleset or option the engine does not define (e.g. B-4)."""

    kind = "unsupported-ruleset"


class IllegalEventError(LogError):
    """An event the rules do not allow in the state reached so far."""

    kind = "illegal"


class ResultMismatchError(LogError):
    """The claimed result differs from what replay derived."""

    kind = "result-mismatch"
