"""Deep Dive events in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core.describe import describe_generic
from engines.core.game import Event

PLAIN = {"surface": "surface and open the shells", "stay": "stay in the water"}


def describe(event: Event, snapshot: Mapping[str, Any]) -> str:
    kind = event.get("type")
    if kind == "dive":
        return f"colour die: {event.get('colour')}"
    if kind == "shark":
        return f"shark die: {event.get('colour')}"
    if kind == "open":
        return (
            f"opened {event.get('white')} white, {event.get('black')} black, "
            f"{event.get('empty')} empty"
        )
    return PLAIN.get(kind, describe_generic(event, snapshot))
