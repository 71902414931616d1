"""What the desk and a player's phone show of the tournament day: the rounds with each
table's seats and state, a player's own table and results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from players.models import Player
from tournaments.models import Registration, Round, Table, TableSeat, Tournament
from tournaments.services.day import latest_round, seconds_left
from tournaments.services.table_states import TableState, table_states
from tournaments.services.table_views import SeatView, seat_views


@dataclass
class DayTable:
    table: Table
    seats: list[TableSeat]  # in seat order
    state: TableState
    record_url: str
    mine: SeatView | None = None  # the player's own place and score, on their page

    @property
    def opener(self) -> TableSeat | None:
        return next((seat for seat in self.seats if seat.opening_bidder), None)


@dataclass
class DayRound:
    round: Round
    tables: list[DayTable] = field(default_factory=list)


def record_url(table: Table) -> str:
    """The record page set up for this table (its seating, its opening bidder)."""
    return f"{reverse('games:record')}?table={table.pk}"


def day_rounds(tournament: Tournament, latest_only: bool = False) -> list[DayRound]:
    """The rounds (latest first) with every table's seats and state, in a few queries."""
    rounds = tournament.rounds.order_by("-number")
    if latest_only:
        rounds = rounds[:1]
    rounds = list(rounds)
    tables = list(
        Table.objects.filter(round__in=rounds)
        .select_related("log")
        .defer("log__raw")
        .prefetch_related("seats__player")
        .order_by("number")
    )
    states = table_states(tables)
    by_round: dict[int, DayRound] = {r.pk: DayRound(r) for r in rounds}
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda seat: seat.seat)
        by_round[table.round_id].tables.append(
            DayTable(table, seats, states[table.pk], record_url(table))
        )
    return list(by_round.values())


def my_tables(tournament: Tournament, player: Player) -> list[DayTable]:
    """Every table the player sat at in this tournament, latest round first."""
    tables = list(
        Table.objects.filter(round__tournament=tournament, seats__player=player)
        .select_related("round", "log__game")
        .defer("log__raw")
        .prefetch_related("seats__player", "log__game__seats", "log__game__tournament_eliminations")
        .order_by("-round__number")
    )
    states = table_states(tables)
    day_tables = []
    for table in tables:
        seats = sorted(table.seats.all(), key=lambda seat: seat.seat)
        mine = next((view for view in seat_views(table) if view.player.pk == player.pk), None)
        day_tables.append(DayTable(table, seats, states[table.pk], record_url(table), mine))
    return day_tables


def my_day(tournament: Tournament, player: Player | None) -> dict[str, Any]:
    """A player's view of the day: their entry, this round's table, their results."""
    current = latest_round(tournament)
    registration = (
        Registration.objects.filter(tournament=tournament, player=player).first()
        if player
        else None
    )
    tables = my_tables(tournament, player) if player else []
    this_round = (
        tables[0] if tables and current and tables[0].table.round_id == current.pk else None
    )
    return {
        "player": player,
        "registration": registration,
        "round": current,
        "my_table": this_round,
        "my_tables": tables,
        "seconds_left": seconds_left(current),
    }
