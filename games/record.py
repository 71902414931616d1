"""Recording a game at a physical table, one step at a time (issue 5, Record page).

The page keeps the log so far (game, ruleset, players, setup, events) in the browser and
posts it after every step. `next_step` replays it with the engine and answers what comes
next: the state picture, whose decision it is and the legal choices, each with a label.

Chance outcomes are typed in as they happen at the table: dice faces (Deep Sea Adventure),
colour and shark dice and opened shells (Deep Dive) are events the engine lists as chance
outcomes. Deep Vents hexes are revealed one at a time into the row (DV-2), so a recorded
Deep Vents setup may list only the hexes drawn so far; before a hex must be taken from a
row that is short, the scorekeeper says which hex was drawn, and it joins `setup.stack`.

Deep Sea Adventure: right after a dive ends, each drowned diver who carried two or more
treasure items may give the order they go onto the stacks (DSA-5); `stacking` lists them
while the engine still accepts a `stack` event, and recording the next dive's first event
skips the rest (then the chips stack as carried).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from engines.core.errors import IllegalEventError, MalformedLogError
from engines.core.game import Event, Game, Ruleset, State
from engines.core.log import check_envelope
from engines.core.replay import apply_events, start
from engines.core.schema import FORMAT
from engines.deep_sea_adventure.state import chip_json
from engines.registry import GAMES, get_game

DEEP_VENTS = "deep-vents"
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
                "glossary": glossary(game_id),
            }
        )
    return games


@cache
def glossary(game_id: str) -> dict[str, Any]:
    """Names and numbers the state pictures need beyond the snapshot."""
    game = get_game(game_id)
    if game_id == DEEP_VENTS:
        edition = game.editions()[game.ruleset().edition]
        return {
            "hexes": {hex_id: kind.name for hex_id, kind in edition.hexes.items()},
            "stack": edition.stack_counts,
            "capacity": edition.hex_capacity,
            "payoff": edition.shortfall_payoff,
        }
    if game_id.startswith("deep-sea-adventure"):
        edition = game.editions()[game.ruleset().edition]
        return {"levels": [list(values) for values in edition.levels], "air": edition.air}
    return {}


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
    if game.id == DEEP_VENTS:
        draw = _opening_row_draw(game, log)
        if draw is not None:
            return draw
    ruleset, state = _replayed(log)
    snapshot = state.snapshot()
    answer = {
        "game": game.id,
        "events": len(log["events"]),
        "snapshot": snapshot,
        "seat": state.current_seat(),
        "outcome": None,
        "waiting_for": snapshot.get("waiting_for") or _pending_text(snapshot),
    }
    if state.is_terminal():
        outcome = state.outcome()
        return {
            **answer,
            "kind": "over",
            "choices": [],
            "outcome": {
                "scores": list(outcome.scores),
                "winners": list(outcome.winners),
                "ranks": list(outcome.ranks),
                "termination": outcome.termination,
            },
        }
    if game.id == DEEP_VENTS:
        draw = _row_draw(game, log, ruleset.options["row_size"], snapshot)
        if draw is not None:
            return {**answer, **draw}
    describe = LABELS.get(game.id, describe_generic)
    events = state.legal_actions()  # out-of-turn payoffs included (DV-8)
    return {
        **answer,
        "kind": "chance" if state.is_chance_node() else "decision",
        "choices": [{"event": e, "label": describe(e, snapshot)} for e in events],
        "stacking": stacking_orders_open(state),
    }


def finished_log(data: Any) -> tuple[dict[str, Any], State]:
    """The complete log to save, replayed to its end (raises LogError if it is not over)."""
    log = _log_from(data, require_setup=True)
    _, state = _replayed(log)
    if not state.is_terminal():
        raise IllegalEventError(
            f"the game is not over yet (next: seat {state.current_seat()}); "
            "record it to the end before saving",
            index=len(log["events"]),
        )
    outcome = state.outcome()
    log["result"] = outcome.to_result()
    return log, state


# --- the partial log -----------------------------------------------------------------


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


def _replayed(log: dict[str, Any]) -> tuple[Ruleset, State]:
    """The state after every event of the log (raises LogError at the first bad one)."""
    _, ruleset, state = start(log)
    apply_events(state, log["events"])
    return ruleset, state


def _pending_text(snapshot: Mapping[str, Any]) -> str | None:
    """ "seat 1 to open" from a snapshot's pending decision (games without waiting_for)."""
    pending = snapshot.get("pending")
    if not isinstance(pending, dict) or "decision" not in pending:
        return None
    return f"seat {pending.get('seat')} to {pending['decision']}"


def _player_count(game: Game, log: Mapping[str, Any]) -> int:
    players = len(log["players"])
    if not game.min_players <= players <= game.max_players:
        raise MalformedLogError(
            f"{game.title} takes {game.min_players}-{game.max_players} players, not {players}",
            field="players",
        )
    return players


# --- Deep Vents: hexes drawn into the row as the game goes (DV-2) ---------------------


def _opening_row_draw(game: Game, log: dict[str, Any]) -> dict[str, Any] | None:
    """Before play: the first row is drawn hex by hex until it is full."""
    ruleset = game.ruleset(log.get("ruleset"))
    _player_count(game, log)
    stack = log["setup"].get("stack")
    if not isinstance(stack, list):
        raise MalformedLogError("setup.stack is a list of hex ids", field="setup.stack")
    row_size = ruleset.options["row_size"]
    if len(stack) >= row_size:
        return None
    if log["events"]:
        raise MalformedLogError(
            f"the first row shows {row_size} hexes; setup.stack lists {len(stack)}",
            field="setup.stack",
            rule="DV-2",
        )
    counts = _stack_left(game, ruleset.edition, stack)
    if not all(isinstance(h, str) for h in stack) or min(counts.values(), default=0) < 0:
        raise MalformedLogError(
            "setup.stack holds hexes the game does not have (or too many of one)",
            field="setup.stack",
            rule="DV-1",
        )
    return {
        "game": game.id,
        "events": 0,
        "snapshot": None,
        "seat": None,
        "outcome": None,
        "waiting_for": f"the hex drawn for position {len(stack) + 1} of the first row",
        **_draw_choices(game, ruleset.edition, counts, stack),
    }


def _row_draw(
    game: Game, log: dict[str, Any], row_size: int, snapshot: dict[str, Any]
) -> dict[str, Any] | None:
    """A take is due but the row is short and undrawn hexes remain: ask which was drawn."""
    stack = log["setup"]["stack"]
    if snapshot["phase"] != "take" or len(snapshot["row"]) >= row_size or snapshot["stack"]:
        return None
    edition = game.editions()[game.ruleset(log.get("ruleset")).edition]
    if len(stack) >= edition.stack_size:
        return None
    counts = _stack_left(game, edition.name, stack)
    return {
        "waiting_for": f"the hex drawn into position {len(snapshot['row']) + 1} of the row",
        **_draw_choices(game, edition.name, counts, stack),
    }


def _stack_left(game: Game, edition_name: str, stack: list[Any]) -> Counter[str]:
    counts = Counter(game.editions()[edition_name].stack_counts)
    counts.subtract(Counter(h for h in stack if isinstance(h, str)))
    return counts


def _draw_choices(
    game: Game, edition_name: str, counts: Counter[str], stack: list[Any]
) -> dict[str, Any]:
    names = {hex_id: kind.name for hex_id, kind in game.editions()[edition_name].hexes.items()}
    return {
        "kind": "draw",
        "drawn": list(stack),
        "choices": [
            {"draw": hex_id, "label": f"{names[hex_id]} ({left} left)"}
            for hex_id, left in sorted(counts.items(), key=lambda item: names[item[0]])
            if left > 0
        ],
    }


# --- Deep Sea Adventure: stacking orders after a dive (DSA-5) ------------------------


def stacking_orders_open(state: State) -> list[dict[str, Any]]:
    """Drowned divers who may still give a stacking order: seat and the items they carried
    (each a list of chips), in carried order. Empty once the next dive has begun."""
    restack = getattr(state, "restack", None)
    if not restack:
        return []
    return [
        {"seat": seat, "items": [[chip_json(chip) for chip in item] for item in items]}
        for seat, items in restack["items"].items()
        if seat not in restack["given"] and len(items) > 1
    ]


# --- labels for choices and viewer steps ----------------------------------------------


def _at(coords: Any) -> str:
    return f"[{coords[0]}, {coords[1]}]" if isinstance(coords, list) and len(coords) == 2 else "?"


def _dv_hex(snapshot: Mapping[str, Any], seat: Any, coords: Any) -> str:
    names = glossary(DEEP_VENTS)["hexes"]
    for player in snapshot.get("players", []):
        if player["seat"] == seat:
            for tile in player["hexes"]:
                if tile["at"] == coords:
                    return f"{names.get(tile['hex'], tile['hex'])} at {_at(coords)}"
    return f"the hex at {_at(coords)}"


def describe_deep_vents(event: Event, snapshot: Mapping[str, Any]) -> str:
    kind, seat = event.get("type"), event.get("seat")
    names = glossary(DEEP_VENTS)["hexes"]
    if kind == "bid":
        return f"bid {event.get('amount')}"
    if kind == "pass":
        return "pass (leave the bidding)"
    if kind == "take":
        position = event.get("position")
        row = snapshot.get("row", [])
        if isinstance(position, int) and 1 <= position <= len(row):
            offered = row[position - 1]
            name = names.get(offered["hex"], offered["hex"])
            extra = f", {offered['archaea']} archaea on it" if offered["archaea"] else ""
            return f"take {name} at position {position} (pay {position - 1}{extra})"
        return f"take position {position}"
    if kind == "place":
        return f"place at {_at(event.get('hex'))}"
    if kind == "grow":
        text = f"grow {_dv_hex(snapshot, seat, event.get('hex'))}"
        if "from" in event:
            text += f", taking from {_dv_hex(snapshot, seat, event['from'])}"
        return text
    if kind == "trigger":
        pending = snapshot.get("pending") or {}
        again = " again" if pending.get("repeat") == event.get("hex") else ""
        text = f"trigger {_dv_hex(snapshot, seat, event.get('hex'))}{again}"
        if "source" in event:
            text += f", paying with {_dv_hex(snapshot, seat, event['source'])}"
        return text
    if kind == "end":
        return "end the turn"
    if kind == "shell":
        return "spend a shell (block half)" if event.get("use") else "take the attack (no shell)"
    if kind == "decimate":
        return f"decimate {_dv_hex(snapshot, seat, event.get('hex'))}"
    if kind == "payoff":
        return f"seat {seat} pays off a shortfall token"
    return describe_generic(event, snapshot)


def describe_deep_sea_adventure(event: Event, snapshot: Mapping[str, Any]) -> str:
    kind = event.get("type")
    if kind == "roll":
        dice = event.get("dice") or []
        return "roll " + " + ".join(str(face) for face in dice)
    if kind == "choose":
        return "move with " + " + ".join(str(face) for face in event.get("dice") or [])
    if kind == "drop":
        return f"drop carried chip {event.get('chip')}"
    if kind == "stack":
        order = event.get("order") or []
        return "stack the carried items in the order " + ", ".join(
            str(i + 1) if isinstance(i, int) else "?" for i in order
        )
    return {
        "turn": "turn back to the submarine",
        "boost": "boost (one more air)",
        "swim": "swim on (no declaration)",
        "pick": "pick up the treasure",
        "pass": "leave the treasure",
    }.get(kind, describe_generic(event, snapshot))


def describe_deep_dive(event: Event, snapshot: Mapping[str, Any]) -> str:
    kind = event.get("type")
    if kind == "dive":
        return f"colour die: {event.get('colour')}"
    if kind == "shark":
        return f"shark die: {event.get('colour')}"
    if kind == "open":
        return (
            f"opened {event.get('white')} white, {event.get('black')} black, "
            f"{event.get('empty')} empty"
        )
    return {"surface": "surface and open the shells", "stay": "stay in the water"}.get(
        kind, describe_generic(event, snapshot)
    )


def describe_generic(event: Event, snapshot: Mapping[str, Any]) -> str:
    fields = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("type", "seat"))
    return f"{event.get('type')} {fields}".strip()


LABELS: dict[str, Callable[[Event, Mapping[str, Any]], str]] = {
    DEEP_VENTS: describe_deep_vents,
    "deep-sea-adventure": describe_deep_sea_adventure,
    "deep-sea-adventure-boost": describe_deep_sea_adventure,
    "deep-dive": describe_deep_dive,
}


def describe(game_id: str, event: Event, snapshot: Mapping[str, Any]) -> str:
    """A short label of an event, given the snapshot before it."""
    return LABELS.get(game_id, describe_generic)(event, snapshot)
