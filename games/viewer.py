"""Snapshots for a game page's step-through viewer, computed by replaying the stored log.

Step -1 is the table as set up; step i is the state after event i (the index the engine's
errors use). A rejected log replays up to its first bad event, so the viewer shows how far
the game got.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.core.errors import IllegalEventError, LogError
from engines.core.log import loads
from engines.core.replay import start
from games.record import describe

# Up to this many events the page loads every snapshot at once; longer games step by index.
ALL_AT_ONCE = 150


@dataclass
class Frames:
    """Snapshots from step `first` on; `total` events replayed cleanly before any error."""

    game: str | None = None
    total: int = 0
    first: int = -1
    steps: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None


def replay_steps(raw: str, *, first: int = -1, last: int | None = None) -> Frames:
    """Replay a raw log, keeping the steps first..last (inclusive; None: to the end)."""
    frames = Frames(first=first)
    try:
        log = loads(raw)
        _, _, state = start(log)
    except LogError as exc:
        frames.error = exc.to_dict()
        return frames
    frames.game = log["game"]
    # The snapshot before each kept event labels it ("take Anglerfish at position 3").
    before = state.snapshot() if first <= 0 else None
    if first <= -1:
        frames.steps.append(_step(-1, None, None, before))
    for index, event in enumerate(log["events"]):
        if last is not None and index > last:
            break
        seat = event.get("seat")
        try:
            if state.is_terminal():
                raise IllegalEventError("the game is already over")
            state.apply_action(event)
        except LogError as exc:
            frames.error = exc.at(index, seat).to_dict()
            break
        frames.total = index + 1
        if index + 1 >= first:
            after = state.snapshot()
            if before is not None:
                label = describe(frames.game, event, before)
                frames.steps.append(_step(index, event, label, after))
            before = after
    return frames


def count_events(raw: str) -> int:
    """How many events the log lists (0 when it is not a readable log)."""
    try:
        log = loads(raw)
    except LogError:
        return 0
    events = log.get("events") if isinstance(log, dict) else None
    return len(events) if isinstance(events, list) else 0


def player_names(raw: str) -> list[str]:
    """The players' names as the log lists them (empty when it is not a readable log)."""
    try:
        log = loads(raw)
    except LogError:
        return []
    players = log.get("players") if isinstance(log, dict) else None
    if not isinstance(players, list):
        return []
    return [str(p.get("name", "?")) if isinstance(p, dict) else "?" for p in players]


def _step(
    index: int, event: dict[str, Any] | None, label: str | None, snapshot: dict[str, Any]
) -> dict[str, Any]:
    return {"index": index, "event": event, "label": label, "snapshot": snapshot}
