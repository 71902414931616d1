"""Per-round facts for the statistics pages (draws, shark hits, surfacing, points)."""

import json
from pathlib import Path

from engines import replay

EXAMPLE = Path(__file__).parent / "golden/deep-dive/docs-example-tie.json"


def facts_of(kind):
    facts = replay(json.loads(EXAMPLE.read_text()), collect_facts=True).facts
    return [fact for fact in facts if fact["type"] == kind]


def test_facts_are_skipped_unless_asked_for():
    assert replay(json.loads(EXAMPLE.read_text())).facts is None


def test_every_draw_is_a_fact_with_round_pass_and_shells():
    draws = facts_of("draw")
    assert len(draws) == 7
    assert draws[0] == {
        "type": "draw", "round": 1, "pass": 1, "seat": 0, "colour": "blue", "shells": 3,
    }  # fmt: skip
    assert draws[2] == {
        "type": "draw", "round": 2, "pass": 1, "seat": 1, "colour": "yellow", "shells": 2,
    }  # fmt: skip
    assert draws[4]["pass"] == 2


def test_shark_facts_name_who_lost_how_many_shells():
    sharks = facts_of("shark")
    assert [s["hits"] for s in sharks] == [
        [{"seat": 0, "shells_lost": 3}], [], [{"seat": 1, "shells_lost": 5}], [],
    ]  # fmt: skip
    assert [s["seat"] for s in sharks] == [0, 1, 1, 0]


def test_surfacing_facts_record_shells_pearls_and_whether_forced():
    surfacings = facts_of("surface")
    assert surfacings[0] == {
        "type": "surface", "round": 1, "pass": 1, "seat": 1, "shells": 3,
        "white": 1, "black": 2, "empty": 0, "forced": False,
    }  # fmt: skip
    assert surfacings[-1]["forced"] is True
    assert surfacings[-1]["seat"] == 1


def test_round_facts_give_points_per_round_and_shells_drawn():
    rounds = facts_of("round")
    assert [r["points"] for r in rounds] == [[0, 1], [2, 0], [0, 1]]
    assert [r["starting_seat"] for r in rounds] == [0, 1, 0]
    assert [r["shells_drawn"] for r in rounds] == [6, 7, 5]
    assert [r["passes"] for r in rounds] == [1, 2, 1]
