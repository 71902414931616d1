"""Events in words, for games that need nothing better (after OpenSpiel's action_to_string)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def describe_generic(event: Mapping[str, Any], snapshot: Mapping[str, Any]) -> str:
    """ "bid amount 3": the type, then the fields other than the seat."""
    fields = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("type", "seat"))
    return f"{event.get('type')} {fields}".strip()
