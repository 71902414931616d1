"""Table results: a log attached to the table (then verified), or a hand entry."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.db import transaction

import engines
from engines.core.errors import LogError, seat_label
from engines.core.log import loads
from engines.registry import get_game, title_of
from games.models import GameLog, Source
from games.names import stored_log_name
from games.services.errors import TableRefused
from games.services.intake import submit_log
from players.names import canonical_name, seat_name_problems
from tournaments.models import Table, TableSeat
from tournaments.services.table_recording import may_record, open_tables, seated_setup


def seating_problem(table: Table, log: Mapping[str, Any]) -> str | None:
    """Why a parsed log cannot be this table's result, or None when it matches.

    The log must play the tournament's game and ruleset, its players must be the players
    seated at the table (matched by handle, as verification matches them) in the seats the
    seating gave them (its order is the bidding order, DV-3, or the turn order, DV-16), and
    its setup must put first whom the seating put first: the opening bidder drawn for the
    table (DV-3), or seat 0 playing first (DV-16).
    """
    tournament = table.round.tournament
    if log.get("game") != tournament.game_type:
        return (
            f"the log is a {title_of(log.get('game'), unknown=repr(log.get('game')))} game; "
            f"this tournament plays {title_of(tournament.game_type)}"
        )
    try:
        game = get_game(log["game"])
        ruleset = game.ruleset(log.get("ruleset"))
    except LogError as error:
        return f"the log's ruleset: {error}"
    if ruleset.name != tournament.ruleset:  # a log naming no ruleset plays the game's default
        return f"{table} plays the {tournament.ruleset} ruleset, not {ruleset.name}"
    seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.seat)
    seated = sorted(s.player.canonical_name for s in seats)
    names = [p.get("name", "") for p in log.get("players", [])]
    in_log = [canonical_name(n) if isinstance(n, str) else None for n in names]
    if sorted(n for n in in_log if n is not None) != seated or None in in_log:
        return (
            f"the log's players ({', '.join(str(n) for n in in_log)}) are not the players "
            f"seated at {table} ({', '.join(seated)})"
        )
    order = game.seat_order(ruleset)
    for index, (seat, name) in enumerate(zip(seats, in_log, strict=True)):
        if name != seat.player.canonical_name:
            return (
                f"the log has {name} in {seat_label(index)}, but "
                f"{seat.player.canonical_name} is seated there at {table}: a log keeps the "
                f"seating's {order.meaning} [{order.rule}]"
            )
    return setup_problem(table, seats, game, ruleset, log.get("setup"))


def setup_problem(
    table: Table, seats: list[TableSeat], game: Any, ruleset: Any, setup: Any
) -> str | None:
    """Where the log's setup puts first someone the seating did not (the entries the log
    gives; the engine refuses a missing one it needs), in the engine's words and ruling."""
    setup = setup if isinstance(setup, dict) else {}
    fixed = {key: seat for key, seat in seated_setup(table, seats).items() if key in setup}
    names = [seat.player.canonical_name for seat in seats]
    contradiction = game.setup_contradiction(ruleset, setup, fixed, names)
    if contradiction is not None:
        rule = f" [{contradiction.rule}]" if contradiction.rule else ""
        return f"{contradiction.message} at {table}{rule}"
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
                f"this log is already stored, as {stored_log_name(log)}, so it cannot be the "
                f"result of {table}: a table's result is a log sent for that table",
                409,
            )
    return log


def make_result(table: Table, log: GameLog) -> None:
    table.log = log
    table.save(update_fields=["log"])


def replay_refusal(raw: str | bytes) -> TableRefused | None:
    """Why the log would be rejected when verified (its replay's error), or None: lets the
    admin refuse a log that cannot be verified before anything is stored."""
    try:
        engines.replay(loads(raw))
    except LogError as error:
        return TableRefused(f"the log does not replay, so it cannot be verified: {error}")
    return None


def detach_rejected_log(table: Table, *, user: Any) -> None:
    """Free a table whose attached log was rejected by verification, so it can be given
    a corrected log or a hand result. The log itself stays stored (with its verdict)."""
    with transaction.atomic():
        table = (
            # Only the table's row: PostgreSQL locks no outer-joined (nullable) log.
            Table.objects.select_for_update(of=("self",))
            .select_related("round__tournament", "log")
            .get(pk=table.pk)
        )
        if not runs(user, table):
            raise TableRefused(
                f"only staff or the organisers of {table.round.tournament} may do this", 403
            )
        if table.log is None or table.log.status not in (
            GameLog.Status.REJECTED,
            GameLog.Status.ERROR,
        ):
            raise TableRefused(f"{table} holds no rejected log to remove", 409)
        table.log = None
        table.save(update_fields=["log"])


def runs(user: Any, table: Table) -> bool:
    """Staff or an organiser of the table's tournament (no user: the site itself)."""
    if user is None:
        return True
    if not user.is_authenticated:
        return False
    tournament = table.round.tournament
    return user.is_staff or tournament.organisers.filter(pk=user.pk).exists()


Placements = Mapping[int, tuple[int | None, float | None]]  # seat id -> (rank, score)


def hand_result_refusal(table: Table, placements: Placements, user: Any) -> TableRefused | None:
    """Why these placements cannot be the table's result, or None.

    Only staff and the organisers enter results by hand; the table must be open (as for a
    log); every seat of the table exactly once, each with a rank from 1 (best) where tied
    players share a rank and the next rank skips (1, 1, 3); scores are optional numbers.
    """
    if not runs(user, table):
        return TableRefused(
            f"only staff or the organisers of {table.round.tournament} may enter a result by hand",
            403,
        )
    closed = submitter_refusal(table, user)
    if closed is not None:
        return closed
    seats = {seat.pk: seat for seat in table.seats.select_related("player")}
    unknown = sorted(set(placements) - set(seats))
    if unknown:
        return TableRefused(f"seat(s) {unknown} are not seats of {table}")
    missing = [str(seats[pk].player) for pk in seats if pk not in placements]
    unranked = [str(seats[pk].player) for pk, (rank, _) in placements.items() if rank is None]
    if missing or unranked:
        return TableRefused(
            f"every player at {table} needs a placement; missing: {', '.join(missing + unranked)}"
        )
    ranks = sorted(rank for rank, _ in placements.values())
    if any(not isinstance(rank, int) or rank < 1 or rank > len(seats) for rank in ranks):
        return TableRefused(f"placements run from 1 (best) to {len(seats)} at {table}")
    expected = [ranks.index(rank) + 1 for rank in ranks]  # tied places share the best rank
    if ranks != expected:
        shown = ", ".join(map(str, ranks))
        return TableRefused(
            f"placements {shown} do not add up: tied players share a place and the next place "
            f"skips as many (for example 1, 1, 3); here they should be "
            f"{', '.join(map(str, expected))}"
        )
    for _, score in placements.values():
        if score is not None and not math.isfinite(score):
            return TableRefused(f"a score must be a number, not {score}")
    return None


def enter_hand_result(table: Table, placements: Placements, *, user: Any) -> None:
    """Give the table a result by hand (unverified: it counts for standings only).
    Refused with a TableRefused naming the problem (hand_result_refusal), and then nothing
    changes; checked again under the table's row lock, as attach_log does."""
    with transaction.atomic():
        table = (
            Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
        )
        refusal = hand_result_refusal(table, placements, user)
        if refusal is not None:
            raise refusal
        seats = list(table.seats.all())
        for seat in seats:
            seat.hand_rank, seat.hand_score = placements[seat.pk]
        TableSeat.objects.bulk_update(seats, ["hand_rank", "hand_score"])
