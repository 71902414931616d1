"""Deep Vents' named rulesets are built once and shared by every log replayed: a caller that
tries to change them (their options, or which rulesets there are) is refused, so no later
replay resolves against what it left."""

import json
from pathlib import Path

import pytest

from engines.core.replay import replay
from engines.registry import get_game

GAME = get_game("deep-vents")
GOLDEN = sorted((Path(__file__).parent / "golden/deep-vents").glob("*.json"))


def test_a_named_rulesets_options_cannot_be_changed():
    options = GAME.rulesets()["standard"].options
    with pytest.raises(TypeError):
        options["row_size"] = 5  # type: ignore[index]
    assert GAME.rulesets()["starting-bid"].options == {"row_size": 6}


def test_no_ruleset_can_be_added_or_replaced():
    with pytest.raises(TypeError):
        GAME.rulesets()["standard"] = GAME.rulesets()["starting-bid"]  # type: ignore[index]


def test_a_resolved_ruleset_has_options_of_its_own():
    resolved = GAME.ruleset({"name": "standard"})
    resolved.options["row_size"] = 5  # type: ignore[index]
    assert GAME.ruleset({"name": "standard"}).options == {"row_size": 6}


def test_logs_replay_alike_after_a_caller_tried_to_change_the_rulesets():
    log = json.loads(GOLDEN[0].read_text())
    before = replay(log).outcome
    with pytest.raises(TypeError):
        GAME.rulesets()[log["ruleset"]["name"]].options["row_size"] = 5  # type: ignore[index]
    assert replay(log).outcome == before
