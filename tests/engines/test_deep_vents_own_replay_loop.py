"""Deep Vents replays events through its own loop (issue 14): it answers exactly as the
generic loop every game has (State.apply_events), facts and errors alike."""

from __future__ import annotations

import random
from typing import Any

from deep_vents_support import simulated_log
from log_corruption import corrupted

from engines.core.errors import LogError
from engines.core.game import State
from engines.registry import get_game


def replayed(log: dict[str, Any], generic: bool) -> Any:
    """Facts and scores, or the error a scorekeeper reads, from one of the two loops."""
    game = get_game("deep-vents")
    state = game.new_state(game.ruleset(log.get("ruleset")), len(log["players"]), log["setup"])
    state.facts = []
    try:
        if generic:
            State.apply_events(state, log["events"])
        else:
            state.apply_events(log["events"])
    except LogError as error:
        return error.to_dict()
    return state.facts, state.outcome().scores if state.is_terminal() else None


def test_the_own_loop_gives_the_generic_loops_facts_and_errors():
    rng = random.Random(14)
    errors = 0
    for seed in range(4):
        log = simulated_log(players=2 + seed % 3, seed=seed)
        assert replayed(log, generic=False) == replayed(log, generic=True)
        for _ in range(60):
            bad = corrupted(log, rng)
            answer = replayed(bad, generic=False)
            assert answer == replayed(bad, generic=True), bad
            errors += isinstance(answer, dict)
    assert errors > 150  # the corruptions do reach the errors


def test_an_event_after_the_end_is_refused_naming_it_dv_14():
    log = simulated_log(players=2, seed=3)
    log["events"].append({"type": "end", "seat": 1})
    error = replayed(log, generic=False)
    assert error["index"] == len(log["events"]) - 1
    assert error["seat"] == 1
    assert error["rule"] == "DV-14"
    assert error["message"] == "the game is already over; nothing may follow its end"
