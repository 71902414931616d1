"""The picture of the table after any event (for replay viewers)."""

import json
from pathlib import Path

from engines import replay

EXAMPLE = Path(__file__).parent / "golden/deep-dive/docs-example-tie.json"


def snapshots_of(log):
    seen = []
    replay(log, on_event=lambda index, state: seen.append(state.snapshot()))
    return seen


def test_snapshot_after_a_shark_hit_shows_sections_divers_and_pool():
    snapshot = snapshots_of(json.loads(EXAMPLE.read_text()))[2]  # the shark bit blue
    assert snapshot["round"] == 1 and snapshot["starting_seat"] == 0 and snapshot["pass"] == 1
    sections = {s["colour"]: s for s in snapshot["sections"]}
    assert sections["purple"] == {"colour": "purple", "shells": 3, "divers": [1]}
    assert sections["blue"]["divers"] == []
    assert snapshot["divers"] == [
        {"seat": 0, "section": None, "unopened": 0},
        {"seat": 1, "section": "purple", "unopened": 3},
    ]
    assert snapshot["pool"] == {"shells": 35, "unopened": {"white": 20, "black": 6, "empty": 12}}
    assert snapshot["turn"] == 1
    assert snapshot["pending"] == {
        "seat": 1, "decision": "surface-or-stay", "chance": False, "events": ["surface", "stay"],
    }  # fmt: skip


def test_snapshot_after_an_opening_counts_pearls_per_seat_and_black_pearls():
    snapshot = snapshots_of(json.loads(EXAMPLE.read_text()))[4]
    assert snapshot["white_pearls"] == [0, 1]
    assert snapshot["black_pearls"] == 2
    assert snapshot["pool"]["unopened"] == {"white": 19, "black": 4, "empty": 12}
    assert snapshot["round"] == 2 and snapshot["starting_seat"] == 1
    assert snapshot["pending"]["decision"] == "dive" and snapshot["pending"]["chance"]


def test_final_snapshot_has_no_pending_decision():
    final = snapshots_of(json.loads(EXAMPLE.read_text()))[-1]
    assert final["pending"] is None and final["turn"] is None
    assert final["phase"] == "over"
    assert final["white_pearls"] == [2, 2]
    assert final["empty_removed"] == 2
