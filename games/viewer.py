"""Snapshots for a game page's step-through viewer, computed by replaying the stored log.

Step -1 is the table as set up; step i is the state after event i (the index the engine's
errors use). A rejected log replays up to its first bad event, so the viewer shows how far
the game got. The replay is the engine's own (`apply_events`); each step's label is the
engine's description of its event (`Game.describe`), read against the state before it;
its words add when and by whom (`replay.told`: "turn 7, Marina: place Yeti Crab"), as players
read the replay, never the event's index.
"""

from __future__ import annotations

from collections.abc import Mapping
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
        frames.error = {**exc.to_dict(), "words": error_in_words(log, exc.to_dict())}
    return frames


def event_in_words(raw: str, index: int) -> str:
    """Event `index` of a stored log as a player reads it, said by the engine ("turn 7,
    Marina: place Yeti Crab east of Deep Vent"); "" when the log has no such event or does
    not replay as far."""
    try:
        return describe_event(loads(raw), index)
    except (LogError, IndexError):
        return ""


def read_log(raw: str) -> dict[str, Any] | None:
    """A stored log parsed, or None when it is not a readable log."""
    try:
        log = loads(raw)
    except LogError:
        return None
    return log if isinstance(log, dict) else None


def error_in_words(
    log: Mapping[str, Any] | None, error: Mapping[str, Any] | None, *, when: bool = True
) -> str:
    """An engine's error about a log (a stored one, read_log; a recording,
    record_steps.recorded_log) as a player reads it, said by the engine, as a sentence:
    "Turn 1, Ana: it is not Ana's decision: Ben must take a hex from the row [DV-2]", never
    "event 3 (seat 1)". Without `when`, by whom alone ("Ana: it is not..."), replaying
    nothing. The error's own text when there is no readable log, "" when there is no error.
    Capitalised here, once, for every page and script that shows it."""
    if not error:
        return ""
    if log is None:
        words = str(error.get("text") or error.get("message") or "")
    else:
        words = describe_error(log, error, when=when)
    return words[:1].upper() + words[1:]


def count_events(raw: str) -> int:
    """How many events the log lists (0 when it is not a readable log)."""
    log = read_log(raw)
    events = log.get("events") if log is not None else None
    return len(events) if isinstance(events, list) else 0


def player_names(raw: str) -> list[str]:
    """The players' names as the log lists them (empty when it is not a readable log)."""
    log = read_log(raw)
    players = log.get("players") if log is not None else None
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
