"""What the tournament page shows of its rounds, read as plain values: every table, its
seats, its counted game's seats and eliminations, one query each, with no model instance
but the players (issue 25: the page's cost was the ORM building and prefetching some 125
instances and compiling 9 queries, more than the queries took to run). The rules stay in one
place each: seats_shown (what a table shows), result_of (a table's placements) and
result_kind (verified, unverified, pending), as the other pages read them from models."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from common.quick_urls import quick_url
from games.models import GameSeat
from players.models import Player
from tournaments.models import Elimination, Round, Table, TableSeat, Tournament, result_kind
from tournaments.services.standings import TableResult, result_of
from tournaments.services.table_views import SeatView, seats_shown


@dataclass(frozen=True)
class TableShown:
    """A table as the tournament page shows it."""

    pk: int
    number: int
    log_id: int | None
    result_kind: str
    url: str  # its bid record (Table.get_absolute_url)
    game_url: str  # the game's page (GameLog.get_absolute_url), "" without a log


@dataclass
class RoundsShown:
    rounds: list[tuple[Round, list[tuple[TableShown, list[SeatView]]]]]  # newest first
    results: list[TableResult]  # in round and table order, for the standings


def rounds_shown(tournament: Tournament) -> RoundsShown:
    """The rounds newest first, each with its tables and their seats, and every table's
    result: six queries however many tables and games."""
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .order_by("round__number", "number")
        .values_list(
            "pk", "round_id", "round__number", "number", "log_id", "log__game", "log__game__counts"
        )
    )
    seated = defaultdict(list)
    for table_id, player_id, opening_bidder, rank, score in (
        TableSeat.objects.filter(table__round__tournament=tournament)
        .order_by("table_id", "seat")
        .values_list("table_id", "player_id", "opening_bidder", "hand_rank", "hand_score")
    ):
        seated[table_id].append((player_id, opening_bidder, rank, score))
    players = Player.objects.in_bulk({seat[0] for seats in seated.values() for seat in seats})
    # Only a game that counts is a table's result (Table.game).
    games = [game for *_, game, counts in tables if game is not None and counts]
    game_seats = defaultdict(list)
    eliminated = defaultdict(dict)
    if games:
        for game, seat, player_id, rank, score, summary in (
            GameSeat.objects.filter(game_id__in=games)
            .order_by("game_id", "seat")
            .values_list("game_id", "seat", "player_id", "rank", "score", "summary")
        ):
            game_seats[game].append((seat, player_id, rank, score, summary))
        for game, seat, turn in Elimination.objects.filter(game_id__in=games).values_list(
            "game_id", "seat", "turn"
        ):
            eliminated[game][seat] = turn
    by_round = defaultdict(list)
    results = []
    for pk, round_id, round_number, number, log_id, game, counts in tables:
        if game is not None and not counts:
            game = None
        seats = seated[pk]
        shown = TableShown(
            pk,
            number,
            log_id,
            result_kind(game is not None, [rank for _, _, rank, _ in seats]),
            quick_url("tournaments:table", tournament.slug, round_number, number),
            "" if log_id is None else quick_url("games:log", log_id),
        )
        views = seats_shown(
            [(players[player], opening, rank, score) for player, opening, rank, score in seats],
            None if game is None else game_seats[game],
            eliminated[game],
        )
        by_round[round_id].append((shown, views))
        result = result_of(
            round_number,
            number,
            [(player, rank, score) for player, _, rank, score in seats],
            None
            if game is None
            else [(player, rank, score) for _, player, rank, score, _ in game_seats[game]],
        )
        if result is not None:
            results.append(result)
    rounds = [(r, by_round[r.pk]) for r in tournament.rounds.order_by("-number")]
    return RoundsShown(rounds, results)
