"""Recording at a physical table: the hexes drawn into the row as the game goes (DV-2).

Deep Vents hexes are revealed one at a time, so a setup recorded at a table may list only
the hexes drawn so far. Before the first row is full, and whenever a take is due from a
short row while undrawn hexes remain, the scorekeeper says which hex was drawn; it joins
`setup.stack`. The answers say what to ask and offer each hex still in the stack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engines.core.errors import MalformedLogError
from engines.deep_vents.edition import Edition


def opening_row_draw(
    edition: Edition, row_size: int, stack: Any, recorded_events: int
) -> dict[str, Any] | None:
    """Before play: the first row is drawn hex by hex until it shows `row_size` hexes."""
    if not isinstance(stack, list):
        raise MalformedLogError("setup.stack is a list of hex ids", field="setup.stack")
    if len(stack) >= row_size:
        return None
    if recorded_events:
        raise MalformedLogError(
            f"the first row shows {row_size} hexes; setup.stack lists {len(stack)}",
            field="setup.stack",
            rule="DV-2",
        )
    left = _stack_left(edition, stack)
    if not all(isinstance(h, str) for h in stack) or min(left.values(), default=0) < 0:
        raise MalformedLogError(
            "setup.stack holds hexes the game does not have (or too many of one)",
            field="setup.stack",
            rule="DV-1",
        )
    return _draw(
        edition, left, stack, f"the hex drawn for position {len(stack) + 1} of the first row"
    )


def row_draw(
    edition: Edition, row_size: int, stack: list[Any], snapshot: Mapping[str, Any]
) -> dict[str, Any] | None:
    """A take is due but the row is short and undrawn hexes remain: which was drawn?"""
    if snapshot["phase"] != "take" or len(snapshot["row"]) >= row_size or snapshot["stack"]:
        return None
    if len(stack) >= edition.stack_size:
        return None
    left = _stack_left(edition, stack)
    return _draw(
        edition, left, stack, f"the hex drawn into position {len(snapshot['row']) + 1} of the row"
    )


def _stack_left(edition: Edition, stack: list[Any]) -> Counter[str]:
    counts = Counter(edition.stack_counts)
    counts.subtract(Counter(h for h in stack if isinstance(h, str)))
    return counts


def _draw(edition: Edition, left: Counter[str], stack: list[Any], asking: str) -> dict[str, Any]:
    names = {hex_id: kind.name for hex_id, kind in edition.hexes.items()}
    return {
        "waiting_for": asking,
        "drawn": list(stack),
        "choices": [
            {"draw": hex_id, "label": f"{names[hex_id]} ({count} left)"}
            for hex_id, count in sorted(left.items(), key=lambda item: names[item[0]])
            if count > 0
        ],
    }
