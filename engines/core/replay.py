"""Replay: rebuild a game from its log and verify the claimed result."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.core.errors import (
    IllegalEventError,
    LogError,
    MalformedLogError,
    ResultMismatchError,
    name_seats,
)
from engines.core.game import Event, Game, Outcome, Ruleset, State
from engines.core.log import check_header
from engines.core.schema import validate, without_event_items


@dataclass
class Replay:
    """What replay derived from a log."""

    game: Game
    ruleset: Ruleset
    state: State
    outcome: Outcome
    facts: list[dict[str, Any]] | None


def start(log: Mapping[str, Any], *, check_events: bool = True) -> tuple[Game, Ruleset, State]:
    """Check a log's envelope and schema and set up its initial state. Without
    `check_events`, each event is left for the state to check as it applies it
    (Game.checks_event_shapes; `replay` says when the schema's error still comes first)."""
    from engines.registry import get_game

    check_header(log)
    game = get_game(log["game"])
    # A game's schema narrows the whole envelope (log_schema): one pass checks both.
    if check_events:
        validate(game.schema(), log, game.id, game.field_rules())
    else:
        validate(without_event_items(game.schema()), log, f"{game.id} without events")
    ruleset = game.ruleset(log.get("ruleset"))
    players = len(log["players"])
    if not game.min_players <= players <= game.max_players:
        raise MalformedLogError(
            f"{game.id} takes {game.min_players}-{game.max_players} players, log has {players}",
            field="players",
        )
    return game, ruleset, game.new_state(ruleset, players, log["setup"])


def apply_events(
    state: State,
    events: Sequence[Event],
    on_event: Callable[[int, State], None] | None = None,
) -> None:
    """Apply events in order; the first bad one raises a LogError naming its index and seat
    (State.apply_events, or the game's own faster loop)."""
    state.apply_events(events, on_event)


def replay(
    log: Mapping[str, Any],
    *,
    collect_facts: bool = False,
    detail_facts: bool = True,
    on_event: Callable[[int, State], None] | None = None,
) -> Replay:
    """Replay every event; raise a LogError for the first problem found.

    With `collect_facts`, the facts; without `detail_facts`, less the types the game lists
    in Game.detail_facts (what only viewers read; verification skips building them).
    `on_event(index, state)` is called after each event (for step-through viewers).

    A game whose state checks its events itself (Game.checks_event_shapes) is replayed
    with the events' schema check left out; anything that then refuses the log (the rest
    of the schema, the setup, an event, the result) or fails checks it against the whole
    schema first, so a log the schema refuses gets the schema's error, as if checked first.
    """
    from engines.registry import get_game

    check_header(log)
    game = get_game(log["game"])
    if not game.checks_event_shapes or on_event is not None:
        # A viewer stepping through sees no event of a log the schema refuses.
        return finish(
            log,
            *start(log),
            collect_facts=collect_facts,
            detail_facts=detail_facts,
            on_event=on_event,
        )
    state = None
    try:
        _, ruleset, state = start(log, check_events=False)
        state.check_log = lambda: validate(game.schema(), log, game.id, game.field_rules())
        return finish(
            log, game, ruleset, state, collect_facts=collect_facts, detail_facts=detail_facts
        )
    except Exception:
        try:
            validate(game.schema(), log, game.id, game.field_rules())
        except LogError as refused:
            raise refused from None
        raise
    finally:
        if state is not None:
            state.check_log = None  # the log is checked, or refused


def finish(
    log: Mapping[str, Any],
    game: Game,
    ruleset: Ruleset,
    state: State,
    *,
    collect_facts: bool = False,
    detail_facts: bool = True,
    on_event: Callable[[int, State], None] | None = None,
) -> Replay:
    """`replay` from a state `start(log)` already built, for callers that need it first."""
    if collect_facts:
        state.facts = []
        # Only where the flag means something: CPython (3.13) keeps a class's attribute names
        # in one table its instances share, with room for a single name set after some 30
        # states exist; a second such name gives every state that gets it a dict of its own,
        # whose reads are slower (a Deep Dive verification +10 us, 8%, in a process that had
        # built its states first, as benchmarks/replay.py does).
        if game.detail_facts:
            state.detail_facts = detail_facts
    apply_events(state, log["events"], on_event)
    if not state.is_terminal():
        raise unfinished(state, len(log["events"]))
    outcome = state.outcome()
    check_result(log.get("result"), outcome)
    return Replay(game, ruleset, state, outcome, state.facts)


def describe_event(log: Mapping[str, Any], index: int) -> str:
    """Event `index` of a log told to someone who played it: when, who, and the game's own
    words for it, read against the table just before it (as the replay viewer labels its
    steps): "turn 7, Marina: place Yeti Crab east of Deep Vent". An event without a seat
    (a die rolled) names nobody. Raises a LogError when the log does not replay as far as
    the event, and IndexError when it has no such event."""
    game, ruleset, state = start(log)
    if not 0 <= index < len(log["events"]):
        raise IndexError(f"no event {index}: the log has {len(log['events'])}")
    apply_events(state, log["events"][:index])
    before = state.snapshot()
    event = log["events"][index]
    return told(game, log, before, event.get("seat"), game.describe(event, before, ruleset))


def told(
    game: Game, log: Mapping[str, Any], before: Mapping[str, Any], seat: object, what: str
) -> str:
    """`what` happened, told with when (the game's moment of the snapshot `before`) and who
    (the seat's player, by name): "turn 7, Marina: place Yeti Crab"; either left out when
    the game has no moment or the seat is none of the table's."""
    who = player_name(log, seat)
    words = f"{who}: {what}" if who else what
    moment = game.moment(before)
    return f"{moment}, {words}" if moment else words


def player_name(log: Mapping[str, Any], seat: object) -> str:
    """The name of the player in `seat` (counted from 0, as the log does); "" when the seat
    is none of the log's."""
    players = log.get("players")
    if type(seat) is not int or not isinstance(players, list) or not 0 <= seat < len(players):
        return ""
    player = players[seat]
    return str(player.get("name", "")) if isinstance(player, Mapping) else ""


def describe_error(log: Mapping[str, Any], error: Mapping[str, Any], *, when: bool = True) -> str:
    """A verdict's error (LogError.to_dict()) told to someone who played the game: where in
    the game's words rather than the event's index (describe_event's "turn 7, Marina"; where
    the log stops, when it ends too soon), seats named by their players, the ruling kept:
    "turn 1, Ann Abyss: cannot take position 4: needs 3 archaea, has 1 [DV-2]". An error at
    no event is its message alone; one at an event names its player alone without `when` (a
    list of many errors, which cannot replay each log) or when the log does not replay as
    far."""
    names = [player_name(log, seat) for seat in range(len(log.get("players") or []))]
    message = name_seats(str(error.get("message") or error.get("text") or ""), names)
    index, seat = error.get("index"), error.get("seat")
    before = _before(log, index) if when and type(index) is int else None
    if type(index) is not int:
        where = message  # its field ("result.scores") is the log's path, not the game's words
    elif before is None:
        who = player_name(log, seat)
        where = f"{who}: {message}" if who else message
    else:
        where = told(before[0], log, before[1], seat, message)
    rule = error.get("rule")
    return f"{where} [{rule}]" if rule else where


def _before(log: Mapping[str, Any], index: int) -> tuple[Game, dict[str, Any]] | None:
    """The game and its snapshot just before event `index`; None when the events before it
    do not replay (only they are read: a schema refusing event `index` refuses the log)."""
    events = log.get("events")
    if not isinstance(events, list):
        return None
    events = events[:index]
    try:
        game, _, state = start({**log, "events": events})
        apply_events(state, events)
    except LogError:
        return None
    return game, state.snapshot()


def unfinished(state: State, index: int) -> IllegalEventError:
    """The error for a log that stops while a decision is still pending."""
    return IllegalEventError(
        f"the log ends before the game does: {state.must()}",
        index=index,
        seat=state.current_seat(),
        rule=state.end_rule,
    )


def check_result(claimed: Mapping[str, Any] | None, outcome: Outcome) -> None:
    """A claimed result must match replay exactly (scores in seat order, winners)."""
    if claimed is None:
        return
    scores = list(claimed["scores"])
    if scores != list(outcome.scores):
        raise ResultMismatchError(
            f"claimed scores {scores} but replay gives {list(outcome.scores)}",
            field="result.scores",
        )
    winners = sorted(claimed.get("winners", outcome.winners))
    if winners != sorted(outcome.winners):
        raise ResultMismatchError(
            f"claimed winners {winners} but replay gives {list(outcome.winners)}",
            field="result.winners",
        )


def verify(log: Mapping[str, Any]) -> Outcome:
    """Replay a log and return its outcome (raises LogError when invalid)."""
    return replay(log).outcome
