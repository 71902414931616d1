"""The per-hex statistics lines' `found`, `triggers` and `trigger_archaea` counters, checked
against what the games' events did, worked out from the replay as a viewer sees it (the
engine's snapshot before and after each event), not from the replay facts the statistics
are built from:

- found: the archaea lying on the hex in the row when the seat took it (DV-2);
- triggers: the seat's trigger events on hexes of that type;
- trigger_archaea: what those triggers brought into the seat's supply, from the trigger
  event to the end of its effects (the state back to the seat's activation step).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest
from stats_support import verified_games

from engines.core.replay import apply_events, start
from stats.models import HEX_LINE_COUNTERS
from stats.services.hex_packing import unpack

pytestmark = pytest.mark.django_db

COUNTERS = ("found", "triggers", "trigger_archaea")


def counters_from_the_events(log: dict) -> dict[tuple[int, str], Counter]:
    """(seat, hex type) -> found, triggers and trigger_archaea, read off the snapshots."""
    _, _, state = start(log)
    snapshots = [state.snapshot()]  # snapshots[i]: the state before event i
    apply_events(state, log["events"], lambda index, state: snapshots.append(state.snapshot()))
    counters: defaultdict[tuple[int, str], Counter] = defaultdict(Counter)
    for index, event in enumerate(log["events"]):
        before = snapshots[index]
        seat = event.get("seat")
        if event["type"] == "take":
            slot = before["row"][event["position"] - 1]
            counters[(seat, slot["hex"])]["found"] += slot["archaea"]
        elif event["type"] == "trigger":
            hexes = {tuple(tile["at"]): tile["hex"] for tile in before["players"][seat]["hexes"]}
            kind = hexes[tuple(event["hex"])]
            counters[(seat, kind)]["triggers"] += 1
            after = trigger_finished(snapshots, index, seat)
            gained = after["players"][seat]["supply"] - before["players"][seat]["supply"]
            counters[(seat, kind)]["trigger_archaea"] += gained
    return counters


def trigger_finished(snapshots: list[dict], index: int, seat: int) -> dict:
    """The first state after trigger event `index` where its seat is back at choosing what to
    activate next: every effect of the trigger (and the choices it asked for) is done."""
    for snapshot in snapshots[index + 1 :]:
        if snapshot["phase"] == "activate" and snapshot["current_seat"] == seat:
            return snapshot
    raise AssertionError(f"the trigger of event {index} never finished")


def nonzero(counters: dict) -> dict:
    return {name: value for name, value in counters.items() if value}


def stored_counters(game) -> dict[tuple[int, str], dict]:
    lines = unpack(bytes(game.stat_hexes.packed))
    return {
        (seat, hex_id): nonzero({name: counts[HEX_LINE_COUNTERS.index(name)] for name in COUNTERS})
        for seat, hex_id, *counts in lines
    }


@pytest.fixture
def games(django_capture_on_commit_callbacks):
    return verified_games(
        django_capture_on_commit_callbacks, "deep-vents", 4, 4, seed="hex-line-counters"
    )


def test_found_triggers_and_trigger_archaea_are_what_the_events_did(games):
    totals: Counter = Counter()
    for game in games:
        expected = counters_from_the_events(json.loads(game.log.raw))
        stored = stored_counters(game)

        for key in expected.keys() | stored.keys():
            assert stored.get(key, {}) == nonzero(expected.get(key, {})), (game.pk, key)
        for counter in expected.values():
            totals.update(counter)

    # The games exercise every counter: archaea found on taken hexes, triggers that collect.
    assert totals["found"] > 0 and totals["triggers"] > 0 and totals["trigger_archaea"] > 0
