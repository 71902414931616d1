"""What the tournament page shows, read as plain values: the tournament, every table, its
seats and their players, its counted game's seats and eliminations, the registrations and
the rounds, with no model instance but the tournament, its players and registrations
(issue 25: the page's cost was the ORM building and prefetching some 125 instances and
compiling 9 queries, more than the queries took to run). On PostgreSQL the queries are
compiled once (common.compiled) and sent in two round trips: what the slug names, then
what that named by id (the games' seats joined to the tables by the database took it
longer to plan than the second trip costs); elsewhere each is asked of the ORM. The rules
stay in one place each: seats_shown (what a table shows), result_of (a table's placements)
and result_kind (verified, unverified, pending), as the other pages read them from
models."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import router
from django.db.models import Model, QuerySet, Subquery

from common.compiled import Reading, read
from common.database import any_of
from common.quick_urls import quick_url
from games.models import GameSeat
from players.models import Player
from tournaments.models import (
    Elimination,
    Registration,
    Round,
    Table,
    TableSeat,
    Tournament,
    result_kind,
)
from tournaments.services.standings import Standing, TableResult, result_of, standings_shown
from tournaments.services.table_views import SeatView, seats_shown

# A value no request sends in each of the queries' places (common.compiled): the slug, a
# list of ids.
SLOTS = {"slug": "slot:tournament-slug", "ids": [-32_123]}
TOURNAMENT_READ = tuple(field.attname for field in Tournament._meta.concrete_fields)
PLAYER_READ = tuple(field.attname for field in Player._meta.concrete_fields)
REGISTRATION_READ = tuple(field.attname for field in Registration._meta.concrete_fields)
SEAT_READ = ("table_id", "player_id", "opening_bidder", "hand_rank", "hand_score")


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
class TournamentShown:
    tournament: Tournament
    # Each round's number, its tables and their seats, newest first.
    rounds: list[tuple[int, list[tuple[TableShown, list[SeatView]]]]]
    standings: list[Standing]  # as standings_shown orders them


def tournament_of(slug: str) -> Subquery:
    """The tournament's id, by its slug, within each query: a join of the tournament
    table in each cost the database more planning than running them (issue 25)."""
    return Subquery(Tournament.objects.filter(slug=slug).values("pk")[:1])


def named(slug: str) -> QuerySet:
    return Tournament.objects.filter(slug=slug).order_by().values_list(*TOURNAMENT_READ)[:1]


def tables_of(slug: str) -> QuerySet:
    return (
        Table.objects.filter(round__tournament=tournament_of(slug))
        .order_by("round__number", "number")
        .values_list(
            "pk", "round_id", "round__number", "number", "log_id", "log__game", "log__game__counts"
        )
    )


def seats_of(slug: str) -> QuerySet:
    return (
        TableSeat.objects.filter(table__round__tournament=tournament_of(slug))
        .order_by("table_id", "seat")
        .values_list(*SEAT_READ)
    )


def registrations_of(slug: str) -> QuerySet:
    """The registrations, each with its player, in their model's order (the standings' rows
    are made in this order): by player, all of one tournament."""
    return (
        Registration.objects.filter(tournament=tournament_of(slug))
        .order_by("player")
        .values_list(*REGISTRATION_READ, *(f"player__{name}" for name in PLAYER_READ))
    )


def rounds_of(slug: str) -> QuerySet:
    return (
        Round.objects.filter(tournament=tournament_of(slug))
        .order_by("-number")
        .values_list("pk", "number")
    )


def game_seats_of(ids: list[int]) -> QuerySet:
    """These games' seats, read by game (GameSeat's key), not joined to the games."""
    return (
        GameSeat.objects.filter(any_of("game_id", ids))
        .order_by("game_id", "seat")
        .values_list("game_id", "seat", "player_id", "rank", "score", "summary")
    )


def eliminations_of(ids: list[int]) -> QuerySet:
    return (
        Elimination.objects.filter(any_of("game_id", ids))
        .order_by()
        .values_list("game_id", "seat", "turn")
    )


def players_of(ids: list[int]) -> QuerySet:
    return Player.objects.filter(any_of("id", ids)).order_by().values_list(*PLAYER_READ)


def reading(
    key: str, model: type[Model], build: Callable[..., QuerySet], name: str, value: Any
) -> Reading:
    """A query of the page (common.compiled.Reading) of its one argument `name`."""
    return Reading(f"tournament page: {key}", model, build, {name: SLOTS[name]}, {name: value})


def tournament_shown(slug: str) -> TournamentShown | None:
    """The tournament of this slug with its rounds newest first, each with its tables and
    their seats, and its standings (standings_shown); None for no such tournament."""
    found, tables, seat_rows, registration_rows, round_rows = read(
        [
            reading("tournament", Tournament, named, "slug", slug),
            reading("tables", Table, tables_of, "slug", slug),
            reading("seats", TableSeat, seats_of, "slug", slug),
            reading("registrations", Registration, registrations_of, "slug", slug),
            reading("rounds", Round, rounds_of, "slug", slug),
        ]
    )
    if not found:
        return None
    alias = router.db_for_read(Tournament)
    tournament = Tournament.from_db(alias, TOURNAMENT_READ, found[0])
    width = len(REGISTRATION_READ)
    registrations, players = [], {}
    for row in registration_rows:
        registration = Registration.from_db(alias, REGISTRATION_READ, row[:width])
        player = Player.from_db(alias, PLAYER_READ, row[width:])
        registration._state.fields_cache["player"] = players[player.pk] = player
        registrations.append(registration)
    # Then, by their ids, what the first reading named: only a game that counts is a
    # table's result (Table.game), and a player seated may be registered no more.
    games = [game for *_, game, counts in tables if game is not None and counts]
    unregistered = list({row[1] for row in seat_rows} - players.keys())
    then: list[Reading] = []
    if games:
        then += [
            reading("game seats", GameSeat, game_seats_of, "ids", games),
            reading("eliminations", Elimination, eliminations_of, "ids", games),
        ]
    if unregistered:
        then.append(reading("players", Player, players_of, "ids", unregistered))
    found = read(then)
    game_seats = defaultdict(list)
    eliminated = defaultdict(dict)
    if games:
        for game, *seat in found[0]:
            game_seats[game].append(tuple(seat))
        for game, seat, turn in found[1]:
            eliminated[game][seat] = turn
    if unregistered:
        for row in found[-1]:
            players[row[0]] = Player.from_db(alias, PLAYER_READ, row)
    seated = defaultdict(list)
    for table_id, player, opening_bidder, rank, score in seat_rows:
        seated[table_id].append((players[player], opening_bidder, rank, score))
    by_round = defaultdict(list)
    results: list[TableResult] = []
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
        views = seats_shown(seats, None if game is None else game_seats[game], eliminated[game])
        by_round[round_id].append((shown, views))
        result = result_of(
            round_number,
            number,
            [(player.pk, rank, score) for player, _, rank, score in seats],
            None
            if game is None
            else [(player, rank, score) for _, player, rank, score, _ in game_seats[game]],
        )
        if result is not None:
            results.append(result)
    rounds = [(number, by_round[pk]) for pk, number in round_rows]
    standings = standings_shown(tournament, results=results, registrations=registrations)
    return TournamentShown(tournament, rounds, standings)
