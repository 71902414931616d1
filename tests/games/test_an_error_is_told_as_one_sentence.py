"""An engine's error about a log is told to players by one wrapper (games.viewer.error_in_words)
taking the log parsed: a stored log (read_log) and a recording refused on saving
(record_steps.recorded_log) alike, as a sentence capitalised there once, so that no page or
script capitalises it again (issue 24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.core.errors import LogError
from engines.core.log import dumps
from engines.core.replay import replay
from games.services.record_steps import recorded_log
from games.viewer import error_in_words, read_log
from tests.games_support import simulated_log

ROOT = Path(__file__).resolve().parents[2]


def refused_log() -> tuple[dict, dict]:
    log = simulated_log("deep-dive", seed=2, players=2)
    log["players"] = [{"name": "Marina Abyss"}, {"name": "Nemo"}]
    log["events"][1]["seat"] = 0  # Marina dives first, Nemo second (DD-2)
    with pytest.raises(LogError) as caught:
        replay(log)
    return log, caught.value.to_dict()


def test_a_stored_log_and_a_recording_are_told_the_same_sentence():
    log, error = refused_log()
    recording = {key: log[key] for key in ("game", "ruleset", "players", "setup", "events")}

    stored = error_in_words(read_log(dumps(log)), error)

    assert stored == (
        "Round 1, Marina Abyss: it is not Marina Abyss's turn: Nemo must roll the colour die [DD-2]"
    )
    assert error_in_words(recorded_log(recording), error) == stored


def test_an_unreadable_log_is_told_by_the_errors_own_text_as_a_sentence():
    error = {"kind": "malformed", "message": "not JSON", "text": "not JSON at line 1"}

    assert read_log("{broken") is None
    assert error_in_words(read_log("{broken"), error) == "Not JSON at line 1"
    assert error_in_words(None, None) == ""


def test_no_page_or_script_capitalises_an_errors_words_again():
    verdict = (ROOT / "templates/games/_verdict.html").read_text()
    status = (ROOT / "templates/games/_upload_status.html").read_text()
    record_steps = (ROOT / "games/services/record_steps.py").read_text()

    assert "error_words|capfirst" not in verdict + status
    assert ".upper()" not in record_steps
