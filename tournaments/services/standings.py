"""Tournament standings: points per table by placement, and the tiebreaks in order.

Points at a table of n players: 3 x (opponents outranked + half the opponents tied) / (n - 1),
so a win is worth 3 at any table size and tables of 2, 3 and 4 compare. Placements come from
the verified game (the engine ranks eliminated players last, later eliminations above
earlier ones, DV-8) or, for a table without a log, from the organiser's hand entry.

Tiebreaks, in order (each a column on the tournament page):
1. Sonneborn-Berger (multiplayer): at every table, the final points of each opponent
   outranked plus half of each opponent tied, divided by (n - 1).
2. Opponents' average points: the mean final points of every opponent met (per meeting).
3. Average placement: the mean rank at the tables played (lower is better).
4. Total game score: the in-game scores added up.
5. The seeded draw recorded at registration (lower is better).

Players with no result yet all tie on every column, so only the draw orders them: seating
reads that order (tournament_standings), while the pages show them by name
(standings_shown), where the draw would look random.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from players.names import sort_key
from tournaments.models import Registration, Table, Tournament

WIN_POINTS = 3.0
# Sums of thirds are not exact in binary; compare and show at this precision.
PRECISION = 6


@dataclass(frozen=True)
class TableResult:
    """Placements at one table: player id -> rank (1 = best) and game score."""

    round_number: int
    table_number: int
    ranks: dict[int, int]
    scores: dict[int, float | None]
    verified: bool


@dataclass
class Standing:
    player_id: int
    draw: float
    dropped: bool = False
    points: float = 0.0
    sonneborn_berger: float = 0.0
    opponents_average: float = 0.0
    average_placement: float | None = None
    total_score: float = 0.0
    tables: int = 0
    unverified_tables: int = 0
    position: int = 0
    player: object = field(default=None, repr=False)

    @property
    def placed(self) -> bool:
        """Whether the player has a result yet: until then their 0 points and their place
        in the list say nothing, and the pages show a dash instead."""
        return self.tables > 0

    def sort_key(self) -> tuple[float, ...]:
        placement = math.inf if self.average_placement is None else self.average_placement
        return (
            -round(self.points, PRECISION),
            -round(self.sonneborn_berger, PRECISION),
            -round(self.opponents_average, PRECISION),
            round(placement, PRECISION),
            -round(self.total_score, PRECISION),
            self.draw,
        )


def table_points(rank: int, ranks: list[int]) -> float:
    """3 x (opponents outranked + half the opponents tied) / (table size - 1)."""
    outranked = sum(1 for other in ranks if other > rank)
    tied = sum(1 for other in ranks if other == rank) - 1
    return WIN_POINTS * (outranked + tied / 2) / (len(ranks) - 1)


def compute_standings(
    results: list[TableResult], draws: dict[int, float], dropped: set[int] = frozenset()
) -> list[Standing]:
    """Standings of the registered players (draws: player id -> recorded draw)."""
    rows = {p: Standing(player_id=p, draw=d, dropped=p in dropped) for p, d in draws.items()}
    placements: dict[int, list[int]] = defaultdict(list)
    # A player seated but no longer registered still placed at the table (the others'
    # points count them) but has no row of their own.
    for result in results:
        ranks = list(result.ranks.values())
        for player, rank in result.ranks.items():
            row = rows.get(player)
            if row is None:
                continue
            row.points += table_points(rank, ranks)
            row.tables += 1
            row.unverified_tables += not result.verified
            row.total_score += result.scores.get(player) or 0.0
            placements[player].append(rank)
    for result in results:
        opponents = len(result.ranks) - 1
        for player, rank in result.ranks.items():
            row = rows.get(player)
            if row is None:
                continue
            for other, other_rank in result.ranks.items():
                if other == player or other not in rows:
                    continue
                if other_rank > rank:
                    row.sonneborn_berger += rows[other].points / opponents
                elif other_rank == rank:
                    row.sonneborn_berger += rows[other].points / 2 / opponents
    met: dict[int, list[float]] = defaultdict(list)
    for result in results:
        for player in result.ranks:
            met[player] += [rows[o].points for o in result.ranks if o != player and o in rows]
    for player, row in rows.items():
        if met[player]:
            row.opponents_average = math.fsum(met[player]) / len(met[player])
        if placements[player]:
            row.average_placement = sum(placements[player]) / len(placements[player])
    standings = sorted(rows.values(), key=Standing.sort_key)
    for position, row in enumerate(standings, start=1):
        row.position = position
    return standings


def table_result(table: Table) -> TableResult | None:
    """A table's placements: from its verified game, else the hand entry, else None."""
    game = table.game
    return result_of(
        table.round.number,
        table.number,
        [(s.player_id, s.hand_rank, s.hand_score) for s in table.seats.all()],
        None if game is None else [(s.player_id, s.rank, s.score) for s in game.seats.all()],
    )


def result_of(
    round_number: int,
    table_number: int,
    seated: list[tuple[int, int | None, float | None]],
    game_seats: list[tuple[int | None, int, float]] | None,
) -> TableResult | None:
    """A table's placements from its seats (player id, hand rank, hand score) and its counted
    game's seats (player id, rank, score), or None.

    A game counts only when it seats exactly the table's players: one attached before
    results were checked against the seating is no result (and breaks no page)."""
    players = {player for player, _, _ in seated}
    seats = [s for s in game_seats if s[0] is not None] if game_seats else []
    if seats and {player for player, _, _ in seats} == players and len(seats) == len(players):
        return TableResult(
            round_number,
            table_number,
            {player: rank for player, rank, _ in seats},
            {player: score for player, _, score in seats},
            verified=True,
        )
    if seated and all(rank is not None for _, rank, _ in seated):
        return TableResult(
            round_number,
            table_number,
            {player: rank for player, rank, _ in seated},
            {player: score for player, _, score in seated},
            verified=False,
        )
    return None


def tournament_results(tournament: Tournament) -> list[TableResult]:
    tables = (
        Table.objects.filter(round__tournament=tournament)
        .select_related("round", "log__game")
        .defer("log__raw")  # placements do not need it
        .prefetch_related("seats", "log__game__seats")
        .order_by("round__number", "number")
    )
    return [r for r in map(table_result, tables) if r is not None]


def tournament_standings(
    tournament: Tournament,
    tables: list[Table] | None = None,
    results: list[TableResult] | None = None,
    registrations: list[Registration] | None = None,
) -> list[Standing]:
    """The standings of a tournament, with the Player objects attached; from its `tables`
    when the caller has them already (with seats and games, in round and table order), or
    their `results` (in that order); its `registrations` (with their players, in their
    model's order) when the caller has them."""
    if registrations is None:
        registrations = list(tournament.registrations.select_related("player"))
    draws = {r.player_id: r.draw for r in registrations}
    dropped = {r.player_id for r in registrations if r.dropped_after_round is not None}
    if results is None:
        results = (
            tournament_results(tournament)
            if tables is None
            else [r for r in map(table_result, tables) if r is not None]
        )
    standings = compute_standings(results, draws, dropped)
    players = {r.player_id: r.player for r in registrations}
    for row in standings:
        row.player = players[row.player_id]
    return standings


def standings_shown(
    tournament: Tournament,
    tables: list[Table] | None = None,
    results: list[TableResult] | None = None,
    registrations: list[Registration] | None = None,
) -> list[Standing]:
    """The standings in the order the pages and the CSV show them: the placed players by
    place, then those with no result yet by name (their dashes tie; the draw that breaks
    the tie is for seating, which reads tournament_standings, and would look random)."""
    standings = tournament_standings(tournament, tables, results, registrations)
    # Every placed player sorts above every unplaced one (a placement beats none), so
    # moving the unplaced moves no place.
    unplaced = sorted(
        (row for row in standings if not row.placed),
        key=lambda row: sort_key(row.player.display_name),
    )
    return [row for row in standings if row.placed] + unplaced
