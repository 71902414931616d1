"""Recording a tournament table's game at the table: which tables are open, who may
record them, and what the seating fixes before the first event."""

from __future__ import annotations

from typing import Any

from django.db.models import F, Q, QuerySet

from engines.registry import get_game
from games.services.errors import TableRefused
from players.services import log_name
from tournaments.models import Table, Tournament


def open_tables() -> QuerySet[Table]:
    """Tables that may still get a result: of running tournaments, in the latest round
    (a round is over once the next one is seated), with no result yet (no log, no hand
    entry)."""
    return (
        Table.objects.filter(round__tournament__status=Tournament.Status.RUNNING)
        .filter(log__isnull=True)
        .exclude(seats__hand_rank__isnull=False)
        .exclude(round__tournament__rounds__number__gt=F("round__number"))
    )


def recordable_tables(user: Any) -> QuerySet[Table]:
    """The open tables `user` may record: all of them for staff, else those of the
    tournaments they organise and those they are seated at."""
    tables = open_tables()
    if not user.is_staff:
        tables = tables.filter(Q(seats__player__user=user) | Q(round__tournament__organisers=user))
    return (
        tables.distinct()
        .select_related("round__tournament")
        .prefetch_related("seats__player")
        .order_by("round__tournament__name", "round__number", "number")
    )


def may_record(user: Any, table: Table) -> bool:
    """Staff, the tournament's organisers, or a player seated at the table (no user: the
    site itself, as the demo)."""
    if user is None:
        return True
    if not user.is_authenticated:
        return False
    return (
        user.is_staff
        or table.round.tournament.organisers.filter(pk=user.pk).exists()
        or table.seats.filter(player__user=user).exists()
    )


def table_named(table_id: Any) -> Table:
    """The table `table_id` names; else TableRefused (400 not an id, 404 none)."""
    if not isinstance(table_id, int) or isinstance(table_id, bool):
        raise TableRefused(f"table must be a table id (a whole number), not {table_id!r}")
    in_range = 0 < table_id < 2**31  # a primary key; larger numbers overflow the column
    table = (
        in_range and Table.objects.select_related("round__tournament").filter(pk=table_id).first()
    )
    if not table:
        raise TableRefused(f"there is no table {table_id}", 404)
    return table


def recording_start(table_id: Any, user: Any) -> dict[str, Any]:
    """What the seating fixes for a recording of table `table_id` (table_start), for the
    record page's deal and steps, whether or not the table is still open: a recording under
    way goes on, and its save says why the table no longer takes it. TableRefused when
    there is no such table (404) or `user` may not record it (403)."""
    table = table_named(table_id)
    if not may_record(user, table):
        raise TableRefused(
            f"only staff, the organisers of {table.round.tournament} or a player seated at "
            f"{table} may record it",
            403,
        )
    return table_start(table)


def table_start(table: Table) -> dict[str, Any]:
    """What the seating fixes for a recording of this table: game, ruleset, players in
    seat order and the setup that makes the table's first seat first (seated_setup)."""
    tournament = table.round.tournament
    seats = sorted(table.seats.all(), key=lambda seat: seat.seat)
    players = [{"name": log_name(seat.player)} for seat in seats]
    return {
        "id": table.pk,
        "label": f"{table}: {', '.join(p['name'] for p in players)}",
        "game": tournament.game_type,
        "ruleset": {"name": tournament.ruleset},
        "players": players,
        "setup": seated_setup(table, seats),
    }


def seated_setup(table: Table, seats: list[Any]) -> dict[str, int]:
    """The setup entries the seating fixes (the engine's SeatOrder.setup): each names the
    index, in `seats` (seat order), of the table's first position: the opener drawn for
    starting-bid Deep Vents (DV-3), else seat 0, who plays first (DV-16). A bidding table
    with no opener marked (seated by hand in the admin) fixes nothing: the deal draws one."""
    tournament = table.round.tournament
    game = get_game(tournament.game_type)
    order = game.seat_order(game.ruleset({"name": tournament.ruleset}))
    first = next((i for i, seat in enumerate(seats) if seat.opening_bidder), None)
    if first is None and order.opens_bidding:
        return {}
    return {key: first or 0 for key in order.setup}
