"""Golden logs that must keep verifying, the published schema and the documented example.

The golden games were written by `python -m engines simulate deep-vents` (bots of every
strategy, both rulesets, row_size 5, eliminations); the hand-recorded example is the
one in docs/log-format.md. An engine change that alters any of their results is a rules
change: it must be deliberate, and these files regenerated with it.
"""

import json
import re
from pathlib import Path

import pytest

from engines import replay, verify
from engines.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "engines" / "golden" / "deep-vents").glob("*.json"))


def test_there_are_golden_games_for_every_table_size():
    sizes = {len(json.loads(path.read_text())["players"]) for path in GOLDEN}
    assert sizes == {2, 3, 4}


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_log_verifies_with_its_recorded_result(path):
    log = json.loads(path.read_text())
    outcome = verify(log)
    assert list(outcome.scores) == log["result"]["scores"]
    assert list(outcome.winners) == log["result"]["winners"]


def test_golden_games_cover_shells_decimations_and_eliminations():
    kinds = set()
    for path in GOLDEN:
        facts = replay(json.loads(path.read_text()), collect_facts=True).facts
        kinds |= {f["type"] for f in facts}
        kinds |= {e["type"] for e in json.loads(path.read_text())["events"]}
    assert {"shell", "decimate", "payoff", "eliminated", "bid", "pass", "shortfall"} <= kinds


def test_published_schema_is_up_to_date():
    published = json.loads((ROOT / "docs" / "schemas" / "deep-vents.schema.json").read_text())
    assert published == get_game("deep-vents").schema(), (
        "regenerate: python -m engines schema deep-vents > docs/schemas/deep-vents.schema.json"
    )


def test_the_documented_example_is_the_verified_golden_example():
    text = (ROOT / "docs" / "log-format.md").read_text()
    section = text.split("### Complete example", 1)[1]
    example = json.loads(re.search(r"```json\n(.*?)```", section, re.S).group(1))
    golden = json.loads(
        (ROOT / "tests/engines/golden/deep-vents/hand-recorded-example.json").read_text()
    )
    assert example == golden
    assert list(verify(example).scores) == example["result"]["scores"]
