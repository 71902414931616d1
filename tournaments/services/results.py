"""Table results: a log attached to the table (then verified), or a hand entry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from engines.core.errors import LogError
from engines.core.log import loads
from engines.registry import get_game
from games.models import GameLog, Source
from games.services.errors import TableRefused
from games.services.intake import submit_log
from players.names import canonical_name, seat_name_problems
from tournaments.models import Table
from tournaments.services.recording import may_record, open_tables


def seating_problem(table: Table, log: Mapping[str, Any]) -> str | None:
    """Why a parsed log cannot be this table's result, or None when it matches.

    The log must play the tournament's game and ruleset, its players must be the players
    seated at the table (matched by handle, as verification matches them), and its opening
    bidder the one drawn for the table (DV-3).
    """
    tournament = table.round.tournament
    if log.get("game") != tournament.game_type:
        return (
            f"the log is a {log.get('game')!r} game; this tournament plays {tournament.game_type}"
        )
    try:
        played = get_game(log["game"]).ruleset(log.get("ruleset")).name
    except LogError as error:
        return f"the log's ruleset: {error}"
    if played != tournament.ruleset:  # a log naming no ruleset plays the game's default
        return f"{table} plays the {tournament.ruleset} ruleset, not {played}"
    seats = list(table.seats.select_related("player"))
    seated = sorted(s.player.canonical_name for s in seats)
    names = [p.get("name", "") for p in log.get("players", [])]
    in_log = sorted(canonical_name(n) for n in names if isinstance(n, str))
    if in_log != seated:
        return (
            f"the log's players ({', '.join(in_log)}) are not the players seated at "
            f"{table} ({', '.join(seated)})"
        )
    opener = next((s.player.canonical_name for s in seats if s.opening_bidder), None)
    opening_seat = (log.get("setup") or {}).get("opening_bidder")
    if opener is not None and isinstance(opening_seat, int) and 0 <= opening_seat < len(names):
        if not isinstance(names[opening_seat], str):
            return f"the log's seat {opening_seat} has no name"
        logged = canonical_name(names[opening_seat])
        if logged != opener:
            return (
                f"the log has {logged} open the bidding, but {opener} was drawn to open at "
                f"{table} [DV-3]"
            )
    return None


def table_refusal(table: Table, raw: str | bytes, user: Any) -> TableRefused | None:
    """Why this log cannot become the table's result when `user` submits it, or None:
    the submitter and the table first (submitter_refusal), then the log (log_refusal)."""
    return submitter_refusal(table, user) or log_refusal(table, raw)


def submitter_refusal(table: Table, user: Any) -> TableRefused | None:
    """The submitter must be staff, an organiser of the tournament or a player seated at
    the table (no user: the site itself); the table must be open (no result yet, its round
    the latest, its tournament running)."""
    tournament = table.round.tournament
    if not may_record(user, table):
        return TableRefused(
            f"only staff, the organisers of {tournament} or a player seated at {table} may "
            "give it a result",
            403,
        )
    if not open_tables().filter(pk=table.pk).exists():
        return TableRefused(
            f"{table} is not open for a result: it already has one, its round is over, or "
            "its tournament is not running",
            409,
        )
    return None


def log_refusal(table: Table, raw: str | bytes) -> TableRefused | None:
    """The log must be one, with acceptable player names, and match the seating (players,
    opener, game, ruleset)."""
    try:
        parsed = loads(raw)
    except LogError as error:
        return TableRefused(f"not a log: {error}")
    if not isinstance(parsed, dict):
        return TableRefused("not a log: a log is a JSON object")
    players = parsed.get("players") if isinstance(parsed.get("players"), list) else []
    named = seat_name_problems(p.get("name") if isinstance(p, dict) else None for p in players)
    if named is not None:
        return TableRefused(named[1])
    problem = seating_problem(table, parsed)
    return TableRefused(problem) if problem else None


def attach_log(table: Table, raw: str | bytes, *, user: Any, filename: str = "") -> GameLog:
    """Make the log this table's result: the one way to do it (record page, upload page,
    API, admin, demo). Refused with a TableRefused naming the problem (see table_refusal),
    and then nothing is stored; checked again under the table's row lock, so two
    submissions for one table cannot both win."""
    with transaction.atomic():
        table = (
            Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
        )
        refusal = table_refusal(table, raw, user)
        if refusal is not None:
            raise refusal
        log = submit_log(
            raw,
            user=user,
            source=Source.TOURNAMENT,
            filename=filename,
            on_stored=lambda stored: make_result(table, stored),
            may_submit_any=True,  # table_refusal checked the submitter for this table
        )
        if log.duplicate:
            raise TableRefused(
                f"this log is already stored (log {log.pk}); a table's result is a log sent "
                "for that table",
                409,
            )
    return log


def make_result(table: Table, log: GameLog) -> None:
    table.log = log
    table.save(update_fields=["log"])
