"""Seating a round: table sizes, who sits with whom, in which seat.

Each round is seated to minimise, in this order (a lexicographic cost):

1. players meeting again this round: the squared count of their earlier meetings, as
   dipvis's seeder does (two who met once cost 1, twice 4);
2. meetings again over the rest of the event: the round is planned together with the
   rounds still to come (a plan never stored), so that a round which leaves no way to
   avoid repeats later is not chosen (16 players in pods of 4 can play 5 rounds without a
   repeat, but only if every round fits that plan);
3. seat imbalance over the event: the sum over players of their squared counts in each
   seat (history and plan), lowest when each player takes every seat once per block of
   rounds, as Rally the Troops' designs do. What a seat means is the engine's to say
   (`Game.seat_order`): the position in the bidding order for starting-bid Deep Vents
   (DV-3), in turn order otherwise; a table is stored in that order, seat 0 first;
4. who sits at the smaller tables: nobody twice in a row while others can, those who sat
   at one least often first, then the lowest standings;
5. score-group spread (Swiss): the standing places between players at one table.

The planning (`plan_tables`) is plain Python on player ids; `seat_next_round` reads the
tournament, plans and records the round, its tables and seats. The search is a late
acceptance hill climb over swaps, with a fixed number of steps from the tournament's seed,
so a round's seating is reproducible.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.db import transaction

from engines.core.game import SeatOrder
from engines.registry import get_game
from players.models import Player
from ratings.services import current_elo
from tournaments.models import Registration, Round, Table, TableSeat, Tournament
from tournaments.services.standings import tournament_standings

FULL_TABLE = 4
# The plan looks this many rounds ahead at most (the current one included): enough for an
# affine plane of pods of 4 (5 rounds), short enough to stay fast.
PLAN_ROUNDS = 6
# Search steps per player and the late acceptance memory (Burke & Bykov's LAHC).
STEPS_PER_PLAYER = 600
MIN_STEPS = 5000
ACCEPTANCE_MEMORY = 60
REPEAT_WORK = 400_000
STALE_STEPS = 60

Pair = frozenset[int]


class SeatingError(ValueError):
    """The round cannot be seated; the message says why."""


def table_sizes(
    players: int, *, smallest: int = 2, largest: int = FULL_TABLE, preferred: int = FULL_TABLE
) -> list[int]:
    """Table sizes for `players`, largest first (the smaller tables go to the lowest
    standings): as close to `preferred` as the count allows, by the least sum of squared
    differences, so Deep Vents (2-4) gets 4s and 3s and a 2 only when nothing else adds up
    (2 or 5 players); never a bye."""
    if players < smallest:
        raise SeatingError(
            f"{players} player(s) cannot fill a table; at least {smallest} are needed"
        )
    # best[n]: (cost, sizes) of seating n players; filled for 0..players.
    best: list[tuple[int, int, list[int]] | None] = [(0, 0, [])] + [None] * players
    for total in range(1, players + 1):
        options = []
        for size in range(smallest, min(largest, total) + 1):
            rest = best[total - size]
            if rest is not None:
                cost = rest[0] + (size - preferred) ** 2
                options.append((cost, rest[1] + 1, sorted([*rest[2], size], reverse=True)))
        # Ties: fewer tables, then the larger tables first.
        best[total] = min(options, key=lambda o: (o[0], o[1], [-s for s in o[2]]), default=None)
    found = best[players]
    if found is None:
        raise SeatingError(f"{players} players cannot be split into tables of {smallest}-{largest}")
    return found[2]


@dataclass
class SeatingHistory:
    """What earlier rounds leave for the next one (player ids)."""

    met: Counter[Pair] = field(default_factory=Counter)
    seats: dict[int, Counter[int]] = field(default_factory=dict)  # player -> position -> times
    small_before: Counter[int] = field(default_factory=Counter)
    small_last_round: set[int] = field(default_factory=set)
    widest: Counter[int] = field(default_factory=Counter)  # player -> largest table sat at


def plan_tables(
    order: Sequence[int],
    *,
    small_last_round: Iterable[int] = (),
    small_before: Counter[int] | None = None,
    met: Counter[Pair] | None = None,
    seats: dict[int, Counter[int]] | None = None,
    group_by_standing: bool = True,
    rounds_ahead: int = 0,
    sizes: Sequence[int] | None = None,
    rng: random.Random | None = None,
) -> list[list[int]]:
    """Split players (best standing first) into tables, largest tables first, each in seat
    order (position 0 first), by the cost order of this module's docstring.

    `rounds_ahead` more rounds are planned with this one (repeats and seats only);
    without `group_by_standing` (round robin) standings do not matter."""
    planner = _Planner(
        list(order),
        list(sizes) if sizes is not None else table_sizes(len(order)),
        rounds=1 + min(rounds_ahead, PLAN_ROUNDS - 1),
        met=met or Counter(),
        seats=seats or {},
        small_before=small_before or Counter(),
        small_last_round=set(small_last_round),
        spread_weight=1 if group_by_standing else 0,
        rng=rng or random.Random(0),
    )
    return planner.solve()


class _Planner:
    """The search. Players are indexes 0..n-1 in standing order (an index is a rank)."""

    def __init__(
        self,
        order: list[int],
        sizes: list[int],
        *,
        rounds: int,
        met: Counter[Pair],
        seats: dict[int, Counter[int]],
        small_before: Counter[int],
        small_last_round: set[int],
        spread_weight: int,
        rng: random.Random,
    ) -> None:
        n = len(order)
        if sum(sizes) != n:
            raise SeatingError(f"tables of {sizes} do not seat {n} players")
        self.order = order
        self.n = n
        self.sizes = sorted(sizes, reverse=True)
        self.rounds = rounds
        self.rng = rng
        self.spread_weight = spread_weight
        index = {player: i for i, player in enumerate(order)}
        # Earlier meetings, and earlier plus planned ones (kept up to date by the moves).
        self.before = [[0] * n for _ in range(n)]
        for pair, times in met.items():
            a, b = tuple(pair)
            if a in index and b in index:
                self.before[index[a]][index[b]] = self.before[index[b]][index[a]] = times
        self.repeats_before = sum(c * (c - 1) for row in self.before for c in row) // 2
        width = max(self.sizes)
        self.seats_before = [
            [seats.get(player, Counter())[position] for position in range(width)]
            for player in order
        ]
        # Sitting at a smaller table: last round's first, then the count, then standing.
        largest = self.sizes[0]
        self.small_table = [size < largest for size in self.sizes]
        rank_weight = n * n
        last_round_weight = (max(small_before.values(), default=0) + 2) * n**3
        self.small_cost = [
            (player in small_last_round) * last_round_weight
            + small_before[player] * rank_weight
            + (n - 1 - i)
            for i, player in enumerate(order)
        ]
        # Lexicographic weights: each level outweighs everything below it can add up to.
        spread_max = n**3 + 1
        small_max = n * max(self.small_cost, default=0) * spread_max + spread_max
        history = max((sum(c.values()) for c in seats.values()), default=0)
        seat_max = n * (history + rounds) ** 2 * small_max + small_max
        future_max = n * n * (max(met.values(), default=0) + rounds) ** 2 * seat_max + seat_max
        self.repeat_scale = n * n * (max(met.values(), default=0) + rounds) ** 2 + 1
        self.w_small = spread_max
        self.w_seat = small_max
        self.w_future = seat_max
        self.w_now = future_max

    # -- the state ------------------------------------------------------------------

    def initial(self, plan: list[list[list[int]]] | None = None) -> None:
        """The given plan, or round 0 in standing order (the Swiss pods) and the planned
        rounds built greedily (each table takes the player who has met its players least,
        ties at random); meetings and seat counts are counted again from history."""
        self.meetings = [row[:] for row in self.before]
        self.seat_counts = [row[:] for row in self.seats_before]
        self.tables: list[list[list[int]]] = []
        self.where: list[list[int]] = []  # round -> player -> table index
        for r in range(self.rounds):
            if plan is not None:
                tables = [table[:] for table in plan[r]]
            elif r == 0:
                tables, start = [], 0
                for size in self.sizes:
                    tables.append(list(range(start, start + size)))
                    start += size
            else:
                tables = self.greedy_round()
            self.tables.append(tables)
            where = [0] * self.n
            for t, table in enumerate(tables):
                for position, p in enumerate(table):
                    where[p] = t
                    self.seat_counts[p][position] += 1
                for a, b in itertools.combinations(table, 2):
                    self.meetings[a][b] += 1
                    self.meetings[b][a] += 1
            self.where.append(where)

    def greedy_round(self) -> list[list[int]]:
        left = list(range(self.n))
        self.rng.shuffle(left)
        meetings, tables = self.meetings, []
        for size in self.sizes:
            table = [left.pop()]
            while len(table) < size:
                pick = min(range(len(left)), key=lambda i: sum(meetings[left[i]][x] for x in table))
                table.append(left.pop(pick))
            tables.append(table)
        return tables

    def total(self) -> int:
        now = sum(
            self.before[a][b] ** 2
            for table in self.tables[0]
            for a, b in itertools.combinations(table, 2)
        )
        future = sum(c * (c - 1) for row in self.meetings for c in row) // 2
        seats = sum(c * c for row in self.seat_counts for c in row)
        small = sum(
            self.small_cost[p]
            for t, table in enumerate(self.tables[0])
            if self.small_table[t]
            for p in table
        )
        spread = sum(
            abs(a - b) for table in self.tables[0] for a, b in itertools.combinations(table, 2)
        )
        return (
            now * self.w_now
            + future * self.w_future
            + seats * self.w_seat
            + small * self.w_small
            + spread * self.spread_weight
        )

    def delta(self, r: int, a: int, b: int) -> int:
        """The change in total cost if a and b (in round r) swap places."""
        tables, where = self.tables[r], self.where[r]
        ta, tb = where[a], where[b]
        first, second = tables[ta], tables[tb]
        pa, pb = first.index(a), second.index(b)
        seat_counts = self.seat_counts
        change = 0
        if pa != pb:
            sa, sb = seat_counts[a], seat_counts[b]
            change += 2 * (sa[pb] - sa[pa] + 1 + sb[pa] - sb[pb] + 1) * self.w_seat
        if ta == tb:
            return change
        meetings = self.meetings
        ma, mb = meetings[a], meetings[b]
        future = 0
        for x in first:
            if x != a:
                future += 2 * (mb[x] - ma[x] + 1)
        for y in second:
            if y != b:
                future += 2 * (ma[y] - mb[y] + 1)
        change += future * self.w_future
        if r == 0:
            before = self.before
        else:
            return change
        ba, bb = before[a], before[b]
        now = spread = 0
        for x in first:
            if x != a:
                now += bb[x] ** 2 - ba[x] ** 2
                spread += abs(b - x) - abs(a - x)
        for y in second:
            if y != b:
                now += ba[y] ** 2 - bb[y] ** 2
                spread += abs(a - y) - abs(b - y)
        change += now * self.w_now + spread * self.spread_weight
        if self.small_table[ta] != self.small_table[tb]:
            small = self.small_cost[b] - self.small_cost[a]
            change += (small if self.small_table[ta] else -small) * self.w_small
        return change

    def repeat_delta(self, r: int, a: int, b: int) -> int:
        """The change in the two repeat levels alone (now x repeat_scale + future) if a and
        b, at different tables of round r, swap."""
        tables, where = self.tables[r], self.where[r]
        first, second = tables[where[a]], tables[where[b]]
        ma, mb = self.meetings[a], self.meetings[b]
        future = 0
        for x in first:
            if x != a:
                future += mb[x] - ma[x] + 1
        for y in second:
            if y != b:
                future += ma[y] - mb[y] + 1
        if r:
            return 2 * future
        ba, bb = self.before[a], self.before[b]
        now = 0
        for x in first:
            if x != a:
                now += bb[x] ** 2 - ba[x] ** 2
        for y in second:
            if y != b:
                now += ba[y] ** 2 - bb[y] ** 2
        return now * self.repeat_scale + 2 * future

    def repeat_cost(self) -> int:
        now = sum(
            self.before[a][b] ** 2
            for table in self.tables[0]
            for a, b in itertools.combinations(table, 2)
        )
        future = sum(c * (c - 1) for row in self.meetings for c in row) // 2
        return now * self.repeat_scale + future - self.repeats_before

    def avoid_repeats(self) -> None:
        """Tabu search on who meets whom (after Dotu and Van Hentenryck's social golfer
        search): each step takes a round where someone meets a player again and makes the
        best swap of such a player with one of another table, not undoing a recent swap.
        A search that stops improving starts again from new greedy rounds; the best plan
        found stays. The work is counted in swaps weighed, never in seconds, so the same
        seed gives the same seating on any machine."""
        rng, rounds, n = self.rng, self.rounds, self.n
        best = cost = self.repeat_cost()
        best_plan = self.snapshot()
        tabu: dict[tuple[int, int, int], int] = {}
        since_better = weighed = step = 0
        while best and weighed < REPEAT_WORK:
            step += 1
            if since_better > STALE_STEPS:
                self.initial()
                cost, since_better = self.repeat_cost(), 0
                tabu.clear()
            crowded = [(r, players) for r in range(rounds) if (players := self.repeating(r))]
            if not crowded:  # no table of the plan seats a pair again: nothing to improve
                break
            r, players = rng.choice(crowded)
            where = self.where[r]
            best_change, moves = None, []
            for a in players:
                for b in range(n):
                    if where[b] == where[a] or tabu.get((r, a, b), -1) >= step:
                        continue
                    change = self.repeat_delta(r, a, b)
                    if best_change is None or change < best_change:
                        best_change, moves = change, [(a, b)]
                    elif change == best_change:
                        moves.append((a, b))
            weighed += len(players) * n
            since_better += 1
            if not moves:
                continue
            a, b = rng.choice(moves)
            self.swap(r, a, b)
            cost += best_change
            tabu[r, a, b] = tabu[r, b, a] = step + rng.randint(4, 12)
            if cost < best:
                best, best_plan, since_better = cost, self.snapshot(), 0
        self.restore(best_plan)

    def snapshot(self) -> list[list[list[int]]]:
        return [[table[:] for table in tables] for tables in self.tables]

    def restore(self, plan: list[list[list[int]]]) -> None:
        """Make `plan` the state, recounting meetings and seats from scratch."""
        self.initial(plan)

    def repeating(self, r: int) -> list[int]:
        """The players of round r seated with someone they meet more than once."""
        meetings = self.meetings
        return [
            a
            for table in self.tables[r]
            for a in table
            if any(meetings[a][x] > 1 for x in table if x != a)
        ]

    def swap(self, r: int, a: int, b: int) -> None:
        tables, where = self.tables[r], self.where[r]
        ta, tb = where[a], where[b]
        first, second = tables[ta], tables[tb]
        pa, pb = first.index(a), second.index(b)
        counts = self.seat_counts
        counts[a][pa] -= 1
        counts[b][pb] -= 1
        counts[a][pb] += 1
        counts[b][pa] += 1
        if ta != tb:
            meetings = self.meetings
            for x in first:
                if x != a:
                    meetings[a][x] -= 1
                    meetings[x][a] -= 1
                    meetings[b][x] += 1
                    meetings[x][b] += 1
            for y in second:
                if y != b:
                    meetings[b][y] -= 1
                    meetings[y][b] -= 1
                    meetings[a][y] += 1
                    meetings[y][a] += 1
            where[a], where[b] = tb, ta
        first[pa], second[pb] = b, a

    # -- the search ---------------------------------------------------------------

    def solve(self) -> list[list[int]]:
        self.initial()
        self.avoid_repeats()
        cost = best = self.total()
        best_round = [table[:] for table in self.tables[0]]
        memory = [cost] * ACCEPTANCE_MEMORY
        rng, n, rounds = self.rng, self.n, self.rounds
        for step in range(MIN_STEPS + STEPS_PER_PLAYER * n):
            # Round 0 carries every level of the cost: it gets half the moves.
            r = 0 if rng.random() < 0.5 else rng.randrange(rounds)
            a = rng.randrange(n)
            if rng.random() < 0.5:  # a change of seats at one table
                table = self.tables[r][self.where[r][a]]
                b = table[rng.randrange(len(table))]
                if b == a:
                    continue
            else:
                b = rng.randrange(n - 1)
                b += b >= a
            change = self.delta(r, a, b)
            slot = step % ACCEPTANCE_MEMORY
            if change <= 0 or cost + change <= memory[slot]:
                self.swap(r, a, b)
                cost += change
                if cost < best:
                    best = cost
                    best_round = [table[:] for table in self.tables[0]]
            memory[slot] = cost
        self.best = best
        self.tables[0] = best_round
        return self.result()

    def result(self) -> list[list[int]]:
        """Round 0's tables as player ids: largest first, then the best standing first."""
        tables = sorted(self.tables[0], key=lambda table: (-len(table), min(table)))
        return [[self.order[p] for p in table] for table in tables]


# -- the tournament side ---------------------------------------------------------------


def seat_order(tournament: Tournament) -> SeatOrder:
    """What a seat means at this tournament's tables (the engine's answer)."""
    game = get_game(tournament.game_type)
    return game.seat_order(game.ruleset({"name": tournament.ruleset}))


def position_of(seat: int, opening_seat: int, table_size: int) -> int:
    """A seat's position in the table's order: 0 for the opener (or seat 0 when nobody is
    marked), then clockwise. Seatings made before tables were stored in bidding order had
    the opener drawn at any seat."""
    return (seat - opening_seat) % table_size


def seating_history(tournament: Tournament, before_round: int | None = None) -> SeatingHistory:
    """Meetings, seats and smaller tables of the rounds before `before_round` (all when
    None), read in one query."""
    seats = TableSeat.objects.filter(table__round__tournament=tournament)
    if before_round is not None:
        seats = seats.filter(table__round__number__lt=before_round)
    by_table: dict[int, list[tuple[int, int, bool, int]]] = {}
    for table_id, round_number, seat, player_id, opener in seats.values_list(
        "table_id", "table__round__number", "seat", "player_id", "opening_bidder"
    ):
        by_table.setdefault(table_id, []).append((round_number, seat, opener, player_id))
    history = SeatingHistory()
    last_round = max((row[0] for rows in by_table.values() for row in rows), default=None)
    sizes_by_round: dict[int, int] = {}
    for rows in by_table.values():
        sizes_by_round[rows[0][0]] = max(sizes_by_round.get(rows[0][0], 0), len(rows))
    for rows in by_table.values():
        round_number = rows[0][0]
        players = [row[3] for row in rows]
        history.met.update(frozenset(pair) for pair in itertools.combinations(players, 2))
        opening = next((seat for _, seat, opener, _ in rows if opener), 0)
        for _, seat, _, player in rows:
            position = position_of(seat, opening, len(rows))
            history.seats.setdefault(player, Counter())[position] += 1
            history.widest[player] = max(history.widest[player], len(rows))
        if len(rows) < sizes_by_round[round_number]:
            history.small_before.update(players)
            if round_number == last_round:
                history.small_last_round.update(players)
    return history


@dataclass(frozen=True)
class PlayerSeats:
    player: Player
    counts: list[int]  # times in each position, the first (opener) first

    @property
    def spread(self) -> int:
        return max(self.counts) - min(self.counts) if self.counts else 0


@dataclass(frozen=True)
class PairingQuality:
    """How well rounds 1..`through_round` were paired (the seating page's line)."""

    through_round: int
    repeated_meetings: int  # over the event so far: each meeting beyond a pair's first
    repeated_this_round: int  # pairs at this round's tables who had met before
    seats: list[PlayerSeats]
    seat_order: SeatOrder

    @property
    def positions(self) -> list[int]:
        """1, 2, ... up to the largest table (the seating page's columns)."""
        return list(range(1, max((len(row.counts) for row in self.seats), default=0) + 1))

    @property
    def seat_spread(self) -> int:
        """The largest difference between one player's counts in two seats."""
        return max((row.spread for row in self.seats), default=0)


def pairing_quality(tournament: Tournament, through_round: int) -> PairingQuality:
    """Repeat meetings and each player's seats over rounds 1..through_round. A player's
    seats are counted over the positions of the largest table they sat at."""
    history = seating_history(tournament, before_round=through_round + 1)
    earlier = seating_history(tournament, before_round=through_round).met
    this_round = Counter(history.met)
    this_round.subtract(earlier)
    players = Player.objects.in_bulk(list(history.seats))
    seats = [
        PlayerSeats(players[p], [history.seats[p][seat] for seat in range(history.widest[p])])
        for p in sorted(history.seats, key=lambda p: players[p].handle)
    ]
    return PairingQuality(
        through_round=through_round,
        repeated_meetings=sum(times - 1 for times in history.met.values() if times > 1),
        repeated_this_round=sum(1 for pair, times in this_round.items() if times and earlier[pair]),
        seats=seats,
        seat_order=seat_order(tournament),
    )


def players_to_seat(tournament: Tournament, round_number: int) -> list[Registration]:
    """The registrations seated in this round (the one place that decides who plays)."""
    return [
        r
        for r in tournament.registrations.select_related("player").order_by("player_id")
        if r.plays_in(round_number)
    ]


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


def tournament_table_sizes(tournament: Tournament, players: int) -> list[int]:
    game = get_game(tournament.game_type)
    preferred = min(max(game.tournament_table_size, game.min_players), game.max_players)
    return table_sizes(
        players, smallest=game.min_players, largest=game.max_players, preferred=preferred
    )


@transaction.atomic
def seat_next_round(tournament: Tournament) -> Round:
    """Seat the next round: tables, each in seat order from its opener (DV-3: the opening
    bidder is seat 0, marked on the seat)."""
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
    registrations = players_to_seat(tournament, number)
    order = seeding_order(tournament, registrations, number)
    history = seating_history(tournament)
    plan = plan_tables(
        order,
        small_last_round=history.small_last_round,
        small_before=history.small_before,
        met=history.met,
        seats=history.seats,
        group_by_standing=tournament.format == Tournament.Format.SWISS,
        rounds_ahead=tournament.rounds_planned - number,
        sizes=tournament_table_sizes(tournament, len(order)),
        rng=tournament.rng(f"round-{number}"),
    )
    opens_bidding = seat_order(tournament).opens_bidding
    round_ = Round.objects.create(tournament=tournament, number=number)
    for table_number, players in enumerate(plan, start=1):
        table = Table.objects.create(round=round_, number=table_number)
        TableSeat.objects.bulk_create(
            TableSeat(
                table=table, seat=seat, player_id=player, opening_bidder=opens_bidding and seat == 0
            )
            for seat, player in enumerate(players)
        )
    if tournament.status == Tournament.Status.REGISTRATION:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_
