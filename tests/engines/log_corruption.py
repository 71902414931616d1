"""Corrupted copies of a Deep Vents log, for the tests that replay them two ways and compare
the answers (the replay loop's fast paths against every event's handler): one event dropped,
doubled, retyped, moved to another seat, pointed at another hex, given a field its type does
not take, or an event after the game's end."""

from __future__ import annotations

import copy
import random
from typing import Any

# Event types any handler takes, and two no handler takes (the loop's refusal).
TYPES = ["grow", "trigger", "end", "take", "place", "payoff", "nope", 3]
# Hexes the next activation may or may not be at; not integers; not a pair.
HEXES = [[0, 0], [1, -1], [2.0, 0], [True, 0], [0], [0, 1, 2], "x"]
# A field only some event types take (DV-5, DV-7, DV-12).
FIELDS = ["from", "source", "use"]


def corrupted(log: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A copy of `log` with one change drawn by `rng` (the log itself is left as it is)."""
    log = copy.deepcopy(log)
    events = log["events"]
    index = rng.randrange(len(events))
    event = events[index]
    change = rng.randrange(7)
    if change == 0:
        del events[index]
    elif change == 1:
        events.insert(index, copy.deepcopy(event))
    elif change == 2:
        event["type"] = rng.choice(TYPES)
    elif change == 3:
        event["seat"] = rng.choice([(event["seat"] + 1) % len(log["players"]), True, 1.0])
    elif change == 4:
        event["hex"] = rng.choice(HEXES)
    elif change == 5:
        event[rng.choice(FIELDS)] = rng.choice([[0, 0], [1, 0], True])
    else:
        events.append({"type": "end", "seat": 0})
    return log
