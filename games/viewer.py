"""Snapshots for a game page's step-through viewer, computed by replaying the stored log.

Step -1 is the table as set up; step i is the state after event i (the index the engine's
errors use). A rejected log replays up to its first bad event, so the viewer shows how far
the game got. The replay is the engine's own (`apply_events`); each step's label is the
engine's description of its event (`Game.describe`), read against the state before it;
its words add when and by whom (`replay.told`: "turn 7, Marina: place Yeti Crab"), as players
read the replay, never the event's index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.core.errors import LogError
from engines.core.game import State
from engines.core.log import loads
from engines.core.replay import apply_events, describe_error, describe_event, start, told

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
        game, ruleset, state = start(log)
    except LogError as exc:
        frames.error = exc.to_dict()
        return frames
    frames.game = game.id
    events = log["events"] if last is None else log["events"][: last + 1]
    # Snapshots are taken from the step before `first` on: the one before labels it.
    before = state.snapshot() if first <= 0 else None
    if first <= -1:
        frames.steps.append(_step(-1, None, None, before))

    def keep(index: int, state: State) -> None:
        nonlocal before
        frames.total = index + 1
        if index + 1 < first:
            return
        after = state.snapshot()
        if before is not None:
            event = events[index]
            label = game.describe(event, before, ruleset)
            words = told(game, log, before, event.get("seat"), label)
            frames.steps.append(_step(index, event, label, after, words))
        before = after

    try:
        apply_events(state, events, keep)
    except LogError as exc:
        frames.error = {**exc.to_dict(), "words": describe_error(log, exc.to_dict())}
    return frames


def event_in_words(raw: str, index: int) -> str:
    """Event `index` of a stored log as a player reads it, said by the engine ("turn 7,
    Marina: place Yeti Crab east of Deep Vent"); "" when the log has no such event or does
    not replay as far."""
    try:
        return describe_event(loads(raw), index)
    except (LogError, IndexError):
        return ""


def error_in_words(raw: str, error: dict[str, Any] | None, *, when: bool = True) -> str:
    """A verdict's error as a player reads it, said by the engine ("turn 1, Ana: it is not
    Ana's decision: Ben must take a hex from the row [DV-2]"), never "event 3 (seat 1)";
    without `when`, by whom alone ("Ana: it is not..."), replaying nothing. The error's own
    text when the stored log is not readable, "" when there is no error."""
    if not error:
        return ""
    try:
        log = loads(raw)
    except LogError:
        log = None
    if not isinstance(log, dict):
        return str(error.get("text") or error.get("message") or "")
    return describe_error(log, error, when=when)


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
    index: int,
    event: dict[str, Any] | None,
    label: str | None,
    snapshot: dict[str, Any],
    words: str | None = None,
) -> dict[str, Any]:
    return {"index": index, "event": event, "label": label, "words": words, "snapshot": snapshot}
