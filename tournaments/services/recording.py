"""Recording a tournament table's game at the table: which tables are open, who may
record them, and what the seating fixes before the first event."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games.services.errors import TableRefused
from players.names import log_name
from tournaments.models import Table, Tournament


def open_tables() -> QuerySet[Table]:
    """Tables of running tournaments with no result yet (no log, no hand entry)."""
    return (
        Table.objects.filter(round__tournament__status=Tournament.Status.RUNNING)
        .filter(log__isnull=True)
        .exclude(seats__hand_rank__isnull=False)
    )


def recordable_tables(user: Any) -> QuerySet[Table]:
    """The open tables `user` may record: all of them for staff, else the player's own."""
    tables = open_tables()
    if not user.is_staff:
        tables = tables.filter(seats__player__user=user)
    return (
        tables.distinct()
        .select_related("round__tournament")
        .prefetch_related("seats__player")
        .order_by("round__tournament__name", "round__number", "number")
    )


def may_record(user: Any, table: Table) -> bool:
    """Signed-in staff, or a signed-in player seated at the table."""
    if not user.is_authenticated:
        return False
    return user.is_staff or table.seats.filter(player__user=user).exists()


def table_to_record(user: Any, table_id: Any) -> Table:
    """The open table `table_id` names, if `user` may record it; else TableRefused."""
    if not isinstance(table_id, int) or isinstance(table_id, bool):
        raise TableRefused(f"table must be a table id (a whole number), not {table_id!r}")
    in_range = 0 < table_id < 2**31  # a primary key; larger numbers overflow the column
    table = (
        in_range and Table.objects.select_related("round__tournament").filter(pk=table_id).first()
    )
    if not table:
        raise TableRefused(f"there is no table {table_id}", 404)
    if not may_record(user, table):
        raise TableRefused(f"only staff or a player seated at {table} may record its game", 403)
    if not open_tables().filter(pk=table.pk).exists():
        raise TableRefused(
            f"{table} is not open for recording: it already has a result, or its "
            "tournament is not running",
            409,
        )
    return table


def table_start(table: Table) -> dict[str, Any]:
    """What the seating fixes for a recording of this table: game, ruleset, players in
    seat order and, for starting-bid Deep Vents, the opening bidder drawn (DV-3)."""
    tournament = table.round.tournament
    seats = sorted(table.seats.all(), key=lambda seat: seat.seat)
    setup: dict[str, Any] = {}
    opener = next((i for i, seat in enumerate(seats) if seat.opening_bidder), None)
    bidding = tournament.game_type == "deep-vents" and tournament.ruleset == "starting-bid"
    if bidding and opener is not None:
        setup["opening_bidder"] = opener
    players = [{"name": log_name(seat.player)} for seat in seats]
    return {
        "id": table.pk,
        "label": f"{table}: {', '.join(p['name'] for p in players)}",
        "game": tournament.game_type,
        "ruleset": {"name": tournament.ruleset},
        "players": players,
        "setup": setup,
    }
