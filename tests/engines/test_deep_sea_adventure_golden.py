"""Golden logs of Deep Sea Adventure and Boost replay to their recorded results."""

import json
from pathlib import Path

import pytest

from engines.core.replay import replay

GOLDEN = Path(__file__).parent / "golden"
LOGS = sorted(GOLDEN.glob("deep-sea-adventure/*.json")) + sorted(
    GOLDEN.glob("deep-sea-adventure-boost/*.json")
)


def test_there_are_golden_logs_for_both_games():
    assert {path.parent.name for path in LOGS} == {
        "deep-sea-adventure",
        "deep-sea-adventure-boost",
    }


@pytest.mark.parametrize("path", LOGS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_a_golden_log_replays_to_its_recorded_result(path: Path):
    log = json.loads(path.read_text())
    result = replay(log)
    assert result.outcome.to_result() == log["result"]
    assert result.game.id == path.parent.name


def test_the_golden_bot_games_include_drowned_chips_put_back_as_stacks():
    log = json.loads((GOLDEN / "deep-sea-adventure/four-bots-with-stacks.json").read_text())
    snapshots = []
    replay(log, on_event=lambda _, state: snapshots.append(state.snapshot()))
    assert any(space["kind"] == "stack" for s in snapshots for space in s["path"])
