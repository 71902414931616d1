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

from engines.core.errors import IllegalEventError, LogError, MalformedLogError, seat_label
from engines.core.game import Game, State
from engines.core.log import check_envelope
from engines.core.replay import apply_events, start
from engines.core.schema import FORMAT
from engines.registry import GAMES, get_game
from players.names import canonical_name

LOG_FIELDS = ("game", "ruleset", "players", "setup", "events")


def catalogue() -> list[dict[str, Any]]:
    """Every game the page can record: rulesets, player counts, the setup to enter as drawn
    and the kind of picture its steps draw."""
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
                "picture": game.picture,
                # What "Enter as drawn" asks for, by ruleset (DV-3: who opens the bidding).
                "drawn_setup": {
                    name: game.drawn_setup(ruleset).to_json()
                    for name, ruleset in sorted(game.rulesets().items())
                },
            }
        )
    return games


def deal(data: Any, seating: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A random setup for a game chosen on the page ("deal randomly"). For a tournament
    table (`seating`, as the table desk describes it) the seating's own setup fields (its
    opening bidder, DV-3) are kept and only what is still chance is drawn."""
    log = _log_from(data, require_setup=False)
    game = get_game(log["game"])
    ruleset = game.ruleset(log.get("ruleset"))
    players = _player_count(game, log)
    fixed = None
    if seating is not None:
        check_seating(log, seating, with_setup=False)
        fixed = seating.get("setup") or {}
    return game.new_setup(ruleset, players, random.SystemRandom(), fixed=fixed)


def check_seating(
    log: Mapping[str, Any], seating: Mapping[str, Any], *, with_setup: bool = True
) -> None:
    """Raise MalformedLogError where a table's recording contradicts the table's seating:
    its game, ruleset, players in seat order and the setup fields the seating fixed (the
    opening bidder, DV-3). Saving checks the same again; this refuses it at the first step
    rather than after the last one."""
    game = get_game(log["game"])
    if game.id != seating["game"]:
        seated_game = get_game(seating["game"]).title
        raise MalformedLogError(f"this table plays {seated_game}, not {game.title}", field="game")
    ruleset = game.ruleset(log.get("ruleset"))
    seated_ruleset = seating["ruleset"]["name"]
    if ruleset.name != seated_ruleset:
        raise MalformedLogError(
            f"this table plays the {seated_ruleset} ruleset, not {ruleset.name}",
            field="ruleset.name",
        )
    names = [p.get("name") if isinstance(p, dict) else None for p in log["players"]]
    seated = [p["name"] for p in seating["players"]]
    if len(names) != len(seated):
        raise MalformedLogError(
            f"this table seats {len(seated)} players, not {len(names)}", field="players"
        )
    for seat, (name, wanted) in enumerate(zip(names, seated, strict=True)):
        if not isinstance(name, str) or canonical_name(name) != canonical_name(wanted):
            raise MalformedLogError(
                f"this table seats {wanted} in {seat_label(seat)}, not {name!r}",
                field=f"players.{seat}.name",
            )
    if with_setup:
        contradiction = game.setup_contradiction(
            ruleset, log.get("setup") or {}, seating.get("setup") or {}, seated
        )
        if contradiction is not None:
            raise contradiction


def next_step(data: Any, seating: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Replay a partial log and describe the next step; raises LogError when it is wrong
    (for a tournament table, also when it contradicts the `seating`)."""
    log = _log_from(data, require_setup=True)
    game = get_game(log["game"])
    ruleset = game.ruleset(log.get("ruleset"))
    _player_count(game, log)
    if seating is not None:
        check_seating(log, seating)
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
            f"the game is not over yet ({_who_acts(log, state)}); record it to the end before "
            "saving",
            index=len(log["events"]),
        )
    log["result"] = state.outcome().to_result()
    return log, state


def recorded_log(data: Any) -> dict[str, Any]:
    """A recording as the log its errors are about (games.viewer.error_in_words tells them
    in the game's words); one too broken to be a log is its players alone, who are named."""
    try:
        return _log_from(data, require_setup=False)
    except LogError:
        players = data.get("players") if isinstance(data, dict) else None
        return {"players": players if isinstance(players, list) else []}


def _who_acts(log: Mapping[str, Any], state: State) -> str:
    """The pending decision with the player's name: "Marina to take a hex from the row"."""
    game = get_game(log["game"])
    asked = game.describe_prompt(
        state.snapshot(), state.waiting_for(), game.ruleset(log.get("ruleset"))
    )
    seat = state.current_seat()
    players = log["players"]
    named = seat is not None and 0 <= seat < len(players) and isinstance(players[seat], dict)
    who = players[seat].get("name") if named else None
    return f"{who} to {asked}" if who else asked


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
