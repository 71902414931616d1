"""Seating a round: table sizes, who sits with whom, and the drawn opening bidders.

The planning is plain Python on player ids (`plan_tables`); `seat_next_round` reads the
tournament, plans, and records the round, its tables and seats.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from django.db import transaction

from ratings.services import current_elo
from tournaments.models import Registration, Round, Table, TableSeat, Tournament
from tournaments.services.standings import tournament_standings

FULL_TABLE = 4
# Cost of sitting with someone again, in standing places of spread at one table: a repeat is
# avoided unless it takes grouping players about this many places apart to do so.
REPEAT_PENALTY = 8.0
MAX_IMPROVEMENT_PASSES = 20

Pair = frozenset[int]


class SeatingError(ValueError):
    """The round cannot be seated; the message says why."""


def table_sizes(players: int) -> list[int]:
    """As many 4-player tables as possible, the rest 3s; 5 players are a 3 and a 2.

    Largest first: the smaller tables go to the lowest standings.
    """
    if players < 2:
        raise SeatingError(f"{players} player(s) cannot fill a table; at least 2 are needed")
    if players == 5:
        return [3, 2]
    if players in (2, 3):
        return [players]
    threes = (-players) % FULL_TABLE  # 0-3 threes make up the remainder (n = 4a + 3b)
    fours = (players - 3 * threes) // FULL_TABLE
    return [FULL_TABLE] * fours + [3] * threes


def plan_tables(
    order: Sequence[int],
    *,
    small_last_round: Iterable[int] = (),
    small_before: Counter[int] | None = None,
    met: Counter[Pair] | None = None,
    group_by_standing: bool = True,
) -> list[list[int]]:
    """Split players (best standing first) into tables, largest tables first.

    - The lowest standings take the smaller tables, skipping anyone who sat at a smaller
      table last round while enough others are left, then anyone who already sat at one
      (`small_before`: how often each player did).
    - Within the big and the small tables, players of similar standing sit together, and
      every earlier meeting of two players at a table costs REPEAT_PENALTY (a weighted
      penalty, not a hard rule). Without `group_by_standing` (round robin) only the
      repeats count.
    """
    sizes = table_sizes(len(order))
    met = met or Counter()
    small_seats = sum(size for size in sizes if size < FULL_TABLE)
    was_small = set(small_last_round)
    small_before = small_before or Counter()
    from_bottom = list(reversed(order))
    # Lowest standings first, but never one who sat small last round while others can, and
    # preferably one who has not sat small at all yet.
    from_bottom.sort(key=lambda p: (p in was_small, small_before[p]))
    small = set(from_bottom[:small_seats])
    big_group = [p for p in order if p not in small]
    small_group = [p for p in order if p in small]
    position = {player: index for index, player in enumerate(order)}
    weight = 1.0 if group_by_standing else 0.0

    def cost(table: Sequence[int]) -> float:
        total = 0.0
        for a, b in itertools.combinations(table, 2):
            total += weight * abs(position[a] - position[b])
            total += REPEAT_PENALTY * met[frozenset((a, b))]
        return total

    tables: list[list[int]] = []
    for group, group_sizes in (
        (big_group, [s for s in sizes if s >= FULL_TABLE]),
        (small_group, [s for s in sizes if s < FULL_TABLE]),
    ):
        chunks = []
        start = 0
        for size in group_sizes:
            chunks.append(group[start : start + size])
            start += size
        tables += improve_by_swaps(chunks, cost)
    return tables


def improve_by_swaps(tables: list[list[int]], cost) -> list[list[int]]:
    """Swap players between tables while that lowers the total cost (hill climbing)."""
    for _ in range(MAX_IMPROVEMENT_PASSES):
        improved = False
        for i, j in itertools.combinations(range(len(tables)), 2):
            for a, b in itertools.product(range(len(tables[i])), range(len(tables[j]))):
                first, second = tables[i], tables[j]
                before = cost(first) + cost(second)
                first[a], second[b] = second[b], first[a]
                if cost(first) + cost(second) < before - 1e-9:
                    improved = True
                else:
                    first[a], second[b] = second[b], first[a]
        if not improved:
            break
    return tables


def previous_meetings(tournament: Tournament) -> Counter[Pair]:
    """How often each pair of players has shared a table in this tournament."""
    met: Counter[Pair] = Counter()
    by_table: dict[int, list[int]] = {}
    seats = TableSeat.objects.filter(table__round__tournament=tournament)
    for table_id, player_id in seats.values_list("table_id", "player_id"):
        by_table.setdefault(table_id, []).append(player_id)
    for players in by_table.values():
        met.update(frozenset(pair) for pair in itertools.combinations(players, 2))
    return met


def small_table_players(rounds: Iterable[Round]) -> Counter[int]:
    """How often each player sat at a table smaller than FULL_TABLE in these rounds."""
    small: Counter[int] = Counter()
    for table in Table.objects.filter(round__in=list(rounds)).prefetch_related("seats"):
        seats = list(table.seats.all())
        if len(seats) < FULL_TABLE:
            small.update(seat.player_id for seat in seats)
    return small


def seeding_order(
    tournament: Tournament, registrations: list[Registration], number: int
) -> list[int]:
    """Player ids, best first: round 1 by rating or at random, later by standings."""
    player_ids = [r.player_id for r in registrations]
    if number == 1:
        if tournament.round_one_seeding == Tournament.Seeding.RANDOM:
            tournament.rng("round-1-order").shuffle(player_ids)
            return player_ids
        ratings = current_elo(tournament.game_type, player_ids)
        draws = {r.player_id: r.draw for r in registrations}
        return sorted(player_ids, key=lambda p: (-ratings[p], draws[p]))
    ranked = [row.player_id for row in tournament_standings(tournament)]
    playing = set(player_ids)
    return [p for p in ranked if p in playing]


@transaction.atomic
def seat_next_round(tournament: Tournament) -> Round:
    """Seat the next round: tables, seats and a random opening bidder at each (DV-3)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    last = tournament.rounds.order_by("-number").first()
    number = 1 if last is None else last.number + 1
    if tournament.status == Tournament.Status.FINISHED:
        raise SeatingError(f"{tournament} is finished; no more rounds")
    if number > tournament.rounds_planned:
        raise SeatingError(f"{tournament} has {tournament.rounds_planned} rounds, all seated")
    if last is not None:
        pending = [t.number for t in last.tables.all() if t.result_kind == "pending"]
        if pending:
            tables = ", ".join(str(n) for n in pending)
            raise SeatingError(f"round {last.number} still has no result at table(s) {tables}")
    registrations = [
        r
        for r in tournament.registrations.select_related("player").order_by("player_id")
        if r.plays_in(number)
    ]
    order = seeding_order(tournament, registrations, number)
    plan = plan_tables(
        order,
        small_last_round=small_table_players([last] if last else []),
        small_before=small_table_players(tournament.rounds.all()),
        met=previous_meetings(tournament),
        group_by_standing=tournament.format == Tournament.Format.SWISS,
    )
    rng = tournament.rng(f"round-{number}")
    round_ = Round.objects.create(tournament=tournament, number=number)
    for table_number, players in enumerate(plan, start=1):
        table = Table.objects.create(round=round_, number=table_number)
        players = list(players)
        rng.shuffle(players)  # seat order is irrelevant to play (DV-3)
        opener = rng.randrange(len(players))
        TableSeat.objects.bulk_create(
            TableSeat(table=table, seat=seat, player_id=player, opening_bidder=seat == opener)
            for seat, player in enumerate(players)
        )
    if tournament.status == Tournament.Status.REGISTRATION:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_
