"""Recording a game at a physical table, one step at a time (issue 5, Record page).

The page keeps the log so far (game, ruleset, players, setup, events) in the browser and
posts it after every step. `next_step` replays it with the engine and answers what comes
next: the state picture, whose decision it is and the legal choices, each with a label.

Only plumbing lives here; the engines know their games. Each choice is one of
`State.legal_actions()` (out-of-turn Deep Vents payoffs included, DV-8) labelled by
`Game.describe_choice` (with what it is about on the picture, clicked to choose it), and
`Game.describe_prompt` words what the player to act is asked; `Game.setup_draw` says when
a chance outcome of the setup must be typed in first (a Deep Vents hex drawn into the row,
DV-2), and `State.recording_extras` adds
optional events (Deep Sea Adventure stacking orders right after a dive, DSA-5).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engines.core.errors import IllegalEventError, MalformedLogError
from engines.core.game import Game, State
from engines.core.log import check_envelope
from engines.core.replay import apply_events, start
from engines.core.schema import FORMAT
from engines.registry import GAMES, get_game

LOG_FIELDS = ("game", "ruleset", "players", "setup", "events")


def catalogue() -> list[dict[str, Any]]:
    """Every game the page can record: rulesets, player counts and the setup to enter."""
    games = []
    for game_id in GAMES:
        game = get_game(game_id)
        games.append(
            {
                "id": game.id,
                "title": game.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "default_ruleset": game.default_ruleset,
                "rulesets": {
                    name: ruleset.to_json() for name, ruleset in sorted(game.rulesets().items())
                },
                "glossary": game.glossary(),
            }
        )
    return games


def deal(data: Any) -> dict[str, Any]:
    """A random setup for a game chosen on the page ("deal randomly")."""
    log = _log_from(data, require_setup=False)
    game = get_game(log["game"])
    ruleset = game.ruleset(log.get("ruleset"))
    players = _player_count(game, log)
    return game.new_setup(ruleset, players, random.SystemRandom())


def next_step(data: Any) -> dict[str, Any]:
    """Replay a partial log and describe the next step; raises LogError when it is wrong."""
    log = _log_from(data, require_setup=True)
    game = get_game(log["game"])
    ruleset = game.ruleset(log.get("ruleset"))
    _player_count(game, log)
    recorded = len(log["events"])
    draw = game.setup_draw(ruleset, log["setup"], recorded, None)
    if draw is not None:  # the table is not laid out yet
        empty = {"snapshot": None, "seat": None, "outcome": None}
        return {"game": game.id, "events": 0, **empty, "kind": "draw", **draw}
    state = _replayed(log)
    snapshot = state.snapshot()
    answer = {
        "game": game.id,
        "events": recorded,
        "snapshot": snapshot,
        "seat": state.current_seat(),
        "outcome": None,
        "waiting_for": state.waiting_for(),
    }
    if state.is_terminal():
        return {**answer, "kind": "over", "choices": [], "outcome": _outcome(state)}
    draw = game.setup_draw(ruleset, log["setup"], recorded, snapshot)
    if draw is not None:
        return {**answer, "kind": "draw", **draw}
    return {
        **answer,
        "kind": "chance" if state.is_chance_node() else "decision",
        "asked": game.describe_prompt(snapshot, answer["waiting_for"], ruleset),
        "choices": [
            {"event": event, **game.describe_choice(event, snapshot, ruleset)}
            for event in state.legal_actions()
        ],
        **state.recording_extras(),
    }


def finished_log(data: Any) -> tuple[dict[str, Any], State]:
    """The complete log to save, replayed to its end (raises LogError if it is not over)."""
    log = _log_from(data, require_setup=True)
    state = _replayed(log)
    if not state.is_terminal():
        raise IllegalEventError(
            f"the game is not over yet ({state.waiting_for()}); record it to the end before saving",
            index=len(log["events"]),
            seat=state.current_seat(),
        )
    log["result"] = state.outcome().to_result()
    return log, state


def _outcome(state: State) -> dict[str, Any]:
    outcome = state.outcome()
    return {
        "scores": list(outcome.scores),
        "winners": list(outcome.winners),
        "ranks": list(outcome.ranks),
        "termination": outcome.termination,
    }


def _log_from(data: Any, *, require_setup: bool) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise MalformedLogError("post a JSON object with game, ruleset, players, setup, events")
    unknown = sorted(set(data) - {*LOG_FIELDS, "meta"})
    if unknown:
        raise MalformedLogError(f"unknown field {unknown[0]!r}", field=unknown[0])
    log = {"format": FORMAT, **data}
    log.setdefault("events", [])
    if not require_setup:
        log.setdefault("setup", {})
    check_envelope(log)
    get_game(log["game"])
    return log


def _replayed(log: dict[str, Any]) -> State:
    """The state after every event of the log (raises LogError at the first bad one)."""
    _, _, state = start(log)
    apply_events(state, log["events"])
    return state


def _player_count(game: Game, log: Mapping[str, Any]) -> int:
    players = len(log["players"])
    if not game.min_players <= players <= game.max_players:
        raise MalformedLogError(
            f"{game.title} takes {game.min_players}-{game.max_players} players, not {players}",
            field="players",
        )
    return players
