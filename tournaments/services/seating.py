"""Seating a round: table sizes, who sits with whom, in which seat.

Each round is seated to minimise, level by level (a lexicographic cost):

1. players meeting again this round: the squared count of their earlier meetings, as
   dipvis's seeder does (two who met once cost 1, twice 4);
2. meetings again over the rest of the event: the round is planned together with the
   rounds still to come (a plan never stored, made again each round), so that no round is
   chosen that leaves no way to avoid repeats later (16 players in pods of 4 can play 5
   rounds without a repeat, but only if every round fits such a plan);
3. turns at a smaller table (a 3 beside 4s): nobody twice in a row while others can, then
   those who sat at one least often;
4. seat imbalance over the event: the sum over players of their squared counts in each
   seat (history and plan), lowest when every player takes every seat once per block of
   rounds, as Rally the Troops' designs do. What a seat means is the engine's to say
   (`Game.seat_order`): the position in the bidding order for starting-bid Deep Vents
   (DV-3: the opener bids first, the last bidder sees every bid), in turn order otherwise
   (DV-16, DSA-8, DD-6). A table is stored in that order, its first player at seat 0;
5. score-group spread (Swiss): the lowest standings take the smaller tables, and players
   of similar standing sit together (the sum of standing places between tablemates).

The planning (`plan_tables`) is plain Python on player ids; `seat_next_round` reads the
tournament, plans and records the round. The search (`_Planner.solve`) works in phases:
a tabu search on meetings, then each table's seat order, then late acceptance hill
climbing on round 0 by standing that never loses a level above. Its work is counted in
steps, never seconds, and its random choices come from the tournament's seed, so a
round's seating is reproducible.
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
from notices.services import notify_round_seated
from players.models import Player
from ratings.services import current_elo
from tournaments.models import Registration, Round, Table, TableSeat, Tournament
from tournaments.services.day import latest_round, next_round_number
from tournaments.services.standings import tournament_standings

FULL_TABLE = 4
# The plan looks this many rounds ahead at most (the current one included): enough for an
# affine plane of pods of 4 (5 rounds), short enough to stay fast.
PLAN_ROUNDS = 6
# Work of each phase of the search (see _Planner.solve), counted in steps, never seconds.
ATTEMPTS = 4  # fresh starts while the plan repeats a meeting or leaves seats unbalanced
SEAT_SWEEPS = 40
SEAT_REPAIR_PASSES = 30
SEAT_REPAIR_MEMORY = 6
SWISS_STEPS_BASE = 2000
SWISS_STEPS_PER_PLAYER = 150
ROUND_EXCHANGES = 0.05  # the share of Swiss steps that try another planned round as round 0
ACCEPTANCE_MEMORY = 50  # late acceptance hill climbing (Burke and Bykov)
REPEAT_WORK_PER_PAIR = 5000  # swaps weighed by the repeat search, per pair of players
STALE_STEPS = 60
CLASH_STEPS = 100  # steps the repeat search goes on for, to part players needing one seat

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
        self.repeats_floor = self.least_repeats()
        width = max(self.sizes)
        self.seats_before = [
            [seats.get(player, Counter())[position] for position in range(width)]
            for player in order
        ]
        # Sitting at a smaller table: last round's first, then the count, then standing.
        largest = self.sizes[0]
        self.small_table = [size < largest for size in self.sizes]
        # Smaller tables: who sat at one last round, then how often before (a level above
        # the seats), then the lowest standings first (with the spread, below the seats).
        last_round = n * max(small_before.values(), default=0) + 1
        self.small_turns = [
            (player in small_last_round) * last_round + small_before[player] for player in order
        ]
        self.small_rank = [n - 1 - i for i in range(n)]
        # Lexicographic weights: each level outweighs all that the levels below can add up
        # to (Python integers do not overflow). The search compares repeats, then seats,
        # level by level; the two lowest levels share one number.
        # Below the repeats, the repeat search also keeps apart two players who each need
        # one seat, the same (each has sat in every other seat more often): the last round
        # of a block of rounds leaves every player one seat to take.
        self.need = []
        for counts in self.seats_before:
            fewest = min(counts)
            needed = [position for position, c in enumerate(counts) if c == fewest]
            self.need.append(needed[0] if len(needed) == 1 and any(counts) else -1)
        self.clash_scale = n * n + 1
        self.repeat_scale = (
            n * n * (max(met.values(), default=0) + rounds) ** 2 + 1
        ) * self.clash_scale
        self.w_small = n**3 + 1
        played = max((sum(c.values()) for c in seats.values()), default=0)
        self.seat_scale = n * width * (played + 1) ** 2 + 1

    def least_repeats(self) -> int:
        """A floor under the plan's repeat cost (the sum over pairs of c(c - 1), c their
        meetings, less what history already holds), so the search stops once it reaches
        what cannot be avoided instead of using its whole budget. The largest of three:

        - each player's meetings (earlier and planned, at least the smallest table's
          worth a round) spread as evenly as possible over everyone else: 12 players in
          4s meet 15 times in 5 rounds, among 11 others;
        - all the round's meetings spread over all pairs: 10 players at 4, 3 and 3 meet in
          60 pairs over 5 rounds, among 45 pairs;
        - pigeonholes: a table of round j has its players at the m tables of round i, so at
          least sum C(x, 2) of its pairs (x spread evenly over m) met at both: 11 players
          at 4, 4 and 3 repeat 2 pairs between any two rounds (40 over 5 rounds), 12 in 4s
          repeat 3. A pair meeting p times in the plan adds at least p(p - 1).
        """
        n, others = self.n, self.n - 1
        planned_meetings = self.rounds * (min(self.sizes) - 1)
        by_player = 0
        for row in self.before:
            quotient, remainder = divmod(sum(row) + planned_meetings, others)
            by_player += remainder * (quotient + 1) * quotient + (others - remainder) * quotient * (
                quotient - 1
            )
        by_player = by_player // 2 - self.repeats_before
        pairs = n * others // 2
        met = sum(map(sum, self.before)) // 2 + self.rounds * sum(
            size * (size - 1) // 2 for size in self.sizes
        )
        quotient, remainder = divmod(met, pairs)
        by_pair = (
            remainder * (quotient + 1) * quotient
            + (pairs - remainder) * quotient * (quotient - 1)
            - self.repeats_before
        )
        tables = len(self.sizes)
        shared = 0  # pairs that met at both of any two rounds
        for size in self.sizes:
            quotient, remainder = divmod(size, tables)
            shared += (
                remainder * (quotient + 1) * quotient
                + (tables - remainder) * quotient * (quotient - 1)
            ) // 2
        by_table = self.rounds * (self.rounds - 1) * shared
        return max(0, by_player, by_pair, by_table)

    # -- the state ------------------------------------------------------------------

    def initial(
        self,
        plan: list[list[list[int]]] | None = None,
        first: list[list[int]] | None = None,
    ) -> None:
        """The given plan, or round 0 (`first`, else in standing order: the Swiss pods)
        and the planned rounds built greedily (each table takes the player who has met its
        players least, ties at random); meetings and seats are counted again from history."""
        self.meetings = [row[:] for row in self.before]
        self.seat_counts = [row[:] for row in self.seats_before]
        self.seats_now = [row[:] for row in self.seats_before]
        self.tables: list[list[list[int]]] = []
        self.where: list[list[int]] = []  # round -> player -> table index
        for r in range(self.rounds):
            if plan is not None:
                tables = [table[:] for table in plan[r]]
            elif r == 0 and first is not None:
                tables = [table[:] for table in first]
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
                    if r == 0:
                        self.seats_now[p][position] += 1
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
            return 2 * future * self.clash_scale
        ba, bb = self.before[a], self.before[b]
        need, need_a, need_b = self.need, self.need[a], self.need[b]
        now = clash = 0
        for x in first:
            if x != a:
                now += bb[x] ** 2 - ba[x] ** 2
                clash += (need_b == need[x] >= 0) - (need_a == need[x] >= 0)
        for y in second:
            if y != b:
                now += ba[y] ** 2 - bb[y] ** 2
                clash += (need_a == need[y] >= 0) - (need_b == need[y] >= 0)
        return now * self.repeat_scale + 2 * future * self.clash_scale + clash

    def repeat_cost(self) -> int:
        now = sum(
            self.before[a][b] ** 2
            for table in self.tables[0]
            for a, b in itertools.combinations(table, 2)
        )
        future = sum(c * (c - 1) for row in self.meetings for c in row) // 2
        clash = sum(
            self.need[a] == self.need[b] >= 0
            for table in self.tables[0]
            for a, b in itertools.combinations(table, 2)
        )
        return now * self.repeat_scale + (future - self.repeats_before) * self.clash_scale + clash

    def avoid_repeats(self, work: int, keep_first: bool = False) -> int:
        """Tabu search on who meets whom (after Dotu and Van Hentenryck's social golfer
        search): each step takes a round where someone meets a player again and makes the
        best swap of such a player with one of another table, not undoing a recent swap.
        A search that stops improving starts again from new greedy rounds; the best plan
        found stays. The work is counted in swaps weighed (returned), never in seconds, so
        the same seed gives the same seating on any machine."""
        rng, rounds, n = self.rng, self.rounds, self.n
        best = cost = self.repeat_cost()
        best_plan = self.snapshot()
        tabu: dict[tuple[int, int, int], int] = {}
        since_better = weighed = step = 0
        settled = None  # the step from which no repeat is left above the floor
        while best > self.repeats_floor * self.clash_scale and weighed < work:
            step += 1
            if settled is None and best // self.clash_scale <= self.repeats_floor:
                settled = step
            if settled is not None and step - settled > CLASH_STEPS:
                break  # seats needed alike may stay together: the seat phases follow
            if since_better > STALE_STEPS:
                self.initial(first=self.tables[0] if keep_first else None)
                cost, since_better = self.repeat_cost(), 0
                tabu.clear()
            crowded = [
                (r, players)
                for r in range(int(keep_first), rounds)
                if (players := self.repeating(r))
            ]
            if not crowded:  # no table seats a pair again or a seat clash: nothing to improve
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
        return weighed

    def snapshot(self) -> list[list[list[int]]]:
        return [[table[:] for table in tables] for tables in self.tables]

    def restore(self, plan: list[list[list[int]]]) -> None:
        """Make `plan` the state, recounting meetings and seats from scratch."""
        self.initial(plan)

    def repeating(self, r: int) -> list[int]:
        """The players of round r seated with someone they meet more than once (or, in
        round 0, with someone who needs the same seat)."""
        meetings, need = self.meetings, self.need
        return [
            a
            for table in self.tables[r]
            for a in table
            if any(
                meetings[a][x] > 1 or (r == 0 and need[a] == need[x] >= 0) for x in table if x != a
            )
        ]

    def swap(self, r: int, a: int, b: int) -> None:
        tables, where = self.tables[r], self.where[r]
        ta, tb = where[a], where[b]
        first, second = tables[ta], tables[tb]
        pa, pb = first.index(a), second.index(b)
        for counts in (self.seat_counts, self.seats_now) if r == 0 else (self.seat_counts,):
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
        """Who meets whom over the plan first, then the seats of every planned table; then
        round 0's pods by standing, and the later rounds planned again around them. That
        regrouping stays only if it loses nothing on the levels above the pods (repeats
        over the plan, turns at a smaller table, seats): in a tight event (16 players in 4s
        over 5 rounds) the plan leaves round 0 little choice."""
        work = REPEAT_WORK_PER_PAIR * self.n * self.n
        self.plan_meetings_and_seats(first=None, work=work)
        before, plan = self.levels(), self.snapshot()
        self.group_by_standing()
        if self.rounds > 1:
            self.plan_meetings_and_seats(first=self.tables[0], work=work // 4)
        if self.levels() > before:
            self.restore(plan)
        return self.result()

    def plan_meetings_and_seats(self, first: list[list[int]] | None, work: int) -> None:
        """Plan the rounds (all, or all but a given round 0) for fewest repeats, then
        seats; a few fresh starts while repeats or unbalanced seats remain."""
        best = best_plan = None
        least = work // 8
        first = [table[:] for table in first] if first is not None else None
        for _ in range(ATTEMPTS):
            self.initial(first=first)
            # The attempts share one budget: a first search that cannot reach zero (a
            # repeat is unavoidable) leaves the later ones only a few steps each.
            work -= self.avoid_repeats(max(work, least), keep_first=first is not None)
            self.balance_seats()
            self.repair_seats(keep_first=first is not None)
            found = self.levels()
            if best is None or found < best:
                best, best_plan = found, self.snapshot()
            if found[1] <= self.repeats_floor and self.seats_balanced():
                break
        self.restore(best_plan)

    def levels(self) -> tuple[int, ...]:
        """The cost, level by level: repeats (this round, then over the plan), turns at a
        smaller table, seats over the plan, then the pods (standings)."""
        now = self.now_cost(self.tables[0])
        future = sum(c * (c - 1) for row in self.meetings for c in row) // 2
        return (
            now,
            future - self.repeats_before,
            self.small_turns_cost(self.tables[0]),
            sum(c * c for row in self.seat_counts for c in row),
            self.pods_cost(self.tables[0]),
        )

    # Seats: each table in turn takes its best order given every other table's seats.

    def table_seat_cost(self, table: Sequence[int], r: int) -> int:
        """What this table of round r adds to the sum of squared seat counts over the plan
        (the counts without this table's own seats); for round 0, then to the same sum
        over the rounds played and round 0 alone: of two plans as balanced, the one that
        leaves the players more balanced now leaves the later rounds freer."""
        cost = self.plan_seat_cost(table)
        if r:
            return cost * self.seat_scale
        return cost * self.seat_scale + self.played_seat_cost(table)

    def plan_seat_cost(self, table: Sequence[int]) -> int:
        """The first part of table_seat_cost: the plan's balance alone."""
        counts = self.seat_counts
        return sum(2 * counts[p][position] + 1 for position, p in enumerate(table))

    def unseat(self, table: list[int], r: int) -> None:
        for position, p in enumerate(table):
            self.seat_counts[p][position] -= 1
            if r == 0:
                self.seats_now[p][position] -= 1

    def seat(self, table: list[int], r: int) -> None:
        for position, p in enumerate(table):
            self.seat_counts[p][position] += 1
            if r == 0:
                self.seats_now[p][position] += 1

    def best_order(
        self, table: list[int], r: int, played_only: bool = False
    ) -> tuple[int, list[list[int]]]:
        """The least seat cost of this (unseated) table and every order reaching it; over
        the rounds played and round 0 only when `played_only`."""
        best, orders = None, []
        for order in itertools.permutations(table):
            cost = self.played_seat_cost(order) if played_only else self.table_seat_cost(order, r)
            if best is None or cost < best:
                best, orders = cost, [list(order)]
            elif cost == best:
                orders.append(list(order))
        return best, orders

    def balance_seats(self) -> None:
        """Sweeps over every planned table, each taking an order of least seat cost given
        the others (one of the equal ones at random, so a sweep can leave a plateau)."""
        for _ in range(SEAT_SWEEPS):
            improved = False
            for r, tables in enumerate(self.tables):
                for table in tables:
                    self.unseat(table, r)
                    now = self.table_seat_cost(table, r)
                    best, orders = self.best_order(table, r)
                    table[:] = self.rng.choice(orders)
                    self.seat(table, r)
                    improved |= best < now
            if not improved and self.seats_balanced():
                return

    def repair_seats(self, keep_first: bool = False) -> None:
        """When the seats cannot be balanced at the tables as they are, move players: each
        pass weighs every swap between two tables of a planned round that adds no repeat
        (there are few late in an event) and makes the best one for the seats, or, when
        none is better, one that is as good (not undoing the last few)."""
        recent: list[tuple[int, int, int]] = []
        for _ in range(SEAT_REPAIR_PASSES):
            if self.seats_balanced():
                return
            best, moves = 1, []
            for r, where in enumerate(self.where):
                if r == 0 and keep_first:
                    continue
                for a, b in itertools.combinations(range(self.n), 2):
                    if where[a] == where[b] or (r, a, b) in recent:
                        continue
                    if self.repeat_delta(r, a, b) > 0:
                        continue
                    change = self.seat_change(r, a, b)
                    if change < best:
                        best, moves = change, [(r, a, b)]
                    elif change == best:
                        moves.append((r, a, b))
            if not moves:
                return
            r, a, b = self.rng.choice(moves)
            self.swap(r, a, b)
            for table in (self.tables[r][self.where[r][a]], self.tables[r][self.where[r][b]]):
                self.unseat(table, r)
                table[:] = self.rng.choice(self.best_order(table, r)[1])
                self.seat(table, r)
            recent = [*recent[-SEAT_REPAIR_MEMORY:], (r, a, b)]

    def seat_change(self, r: int, a: int, b: int) -> int:
        """How much the seat cost changes if a and b swap tables in round r and both
        tables take their best order."""
        where, tables = self.where[r], self.tables[r]
        first, second = tables[where[a]], tables[where[b]]
        self.unseat(first, r)
        self.unseat(second, r)
        now = self.table_seat_cost(first, r) + self.table_seat_cost(second, r)
        after = (
            self.best_order([b if p == a else p for p in first], r)[0]
            + self.best_order([a if p == b else p for p in second], r)[0]
        )
        self.seat(first, r)
        self.seat(second, r)
        return after - now

    def seats_balanced(self) -> bool:
        """No player's seat counts (history and plan) differ by more than 1."""
        return all(max(row) - min(row) <= 1 for row in self.seat_counts)

    # Round 0 by standing: swaps and round exchanges that lose nothing above.

    def small_turns_cost(self, tables: list[list[int]]) -> int:
        return sum(
            self.small_turns[p]
            for t, table in enumerate(tables)
            if self.small_table[t]
            for p in table
        )

    def pods_cost(self, tables: list[list[int]]) -> int:
        """Who of the standings sits small, and the spread of round 0 (the lowest levels)."""
        small = sum(
            self.small_rank[p]
            for t, table in enumerate(tables)
            if self.small_table[t]
            for p in table
        )
        spread = sum(abs(a - b) for table in tables for a, b in itertools.combinations(table, 2))
        return small * self.w_small + spread * self.spread_weight

    def now_cost(self, tables: list[list[int]]) -> int:
        before = self.before
        return sum(
            before[a][b] ** 2 for table in tables for a, b in itertools.combinations(table, 2)
        )

    def group_by_standing(self) -> None:
        """Late acceptance hill climbing on round 0 alone, judged on this round: its
        repeats, turns at a smaller table, the seats of the rounds played and this one,
        then the pods. A move swaps two players of different tables (each table then takes
        its best seat order) or makes a planned round round 0. The rounds after it are
        planned again afterwards (solve)."""
        rng, n, rounds = self.rng, self.n, self.rounds
        cost = self.pods_cost(self.tables[0])
        best, best_plan = (*self.round_levels(), cost), self.snapshot()
        memory = [cost] * ACCEPTANCE_MEMORY
        for step in range(SWISS_STEPS_BASE + SWISS_STEPS_PER_PLAYER * n):
            slot = step % ACCEPTANCE_MEMORY
            if rounds > 1 and rng.random() < ROUND_EXCHANGES:
                change = self.try_round_exchange(rng.randrange(1, rounds), cost, memory[slot])
            else:
                a = rng.randrange(n)
                b = rng.randrange(n - 1)
                b += b >= a
                change = self.try_swap(a, b, cost, memory[slot])
            if change is not None:
                cost += change
                # A move may trade pods for a level above them: compare every level.
                levels = (*self.round_levels(), cost)
                if levels < best:
                    best, best_plan = levels, self.snapshot()
            memory[slot] = cost
        self.restore(best_plan)

    def round_levels(self) -> tuple[int, int, int]:
        """Round 0's repeats, turns at a smaller table and the seats played so far."""
        seats = sum(c * c for row in self.seats_now for c in row)
        return self.now_cost(self.tables[0]), self.small_turns_cost(self.tables[0]), seats

    def try_round_exchange(self, j: int, cost: int, allowed: int) -> int | None:
        """Make planned round j round 0 if no level above the pods gets worse and its
        pods cost at most `allowed`; the rounds keep their seat orders."""
        before = self.round_levels()
        self.exchange(j)
        change = self.pods_cost(self.tables[0]) - cost
        after = self.round_levels()
        if after > before or (after == before and change > 0 and cost + change > allowed):
            self.exchange(j)
            return None
        return change

    def exchange(self, j: int) -> None:
        for table in self.tables[0]:
            for position, p in enumerate(table):
                self.seats_now[p][position] -= 1
        self.tables[0], self.tables[j] = self.tables[j], self.tables[0]
        self.where[0], self.where[j] = self.where[j], self.where[0]
        for table in self.tables[0]:
            for position, p in enumerate(table):
                self.seats_now[p][position] += 1

    def try_swap(self, a: int, b: int, cost: int, allowed: int) -> int | None:
        """Swap a and b between round 0's tables, level by level: fewer repeats this
        round, or as many and fewer turns at a smaller table, or as many and seats as
        balanced so far, and the pods cost at most `allowed`."""
        where = self.where[0]
        ta, tb = where[a], where[b]
        if ta == tb:
            return None
        first, second = self.tables[0][ta], self.tables[0][tb]
        ba, bb = self.before[a], self.before[b]
        repeats = sum(bb[x] ** 2 - ba[x] ** 2 for x in first if x != a) + sum(
            ba[y] ** 2 - bb[y] ** 2 for y in second if y != b
        )
        if repeats > 0:
            return None
        turns = 0
        if self.small_table[ta] != self.small_table[tb]:
            turns = self.small_turns[b] - self.small_turns[a]
            turns = turns if self.small_table[ta] else -turns
        if repeats == 0 and turns > 0:
            return None
        self.unseat(first, 0)
        self.unseat(second, 0)
        seats_now = self.played_seat_cost(first) + self.played_seat_cost(second)
        new_first = [b if p == a else p for p in first]
        new_second = [a if p == b else p for p in second]
        seats_first, orders_first = self.best_order(new_first, 0, played_only=True)
        seats_second, orders_second = self.best_order(new_second, 0, played_only=True)
        seats = seats_first + seats_second
        pods = self.pods_cost_change(ta, tb, a, b)
        worse = seats > seats_now or (seats == seats_now and pods > 0 and cost + pods > allowed)
        if repeats == 0 and turns == 0 and worse:
            self.seat(first, 0)
            self.seat(second, 0)
            return None
        # Fewer repeats, or as many and seats and pods acceptable: apply.
        for x in first:
            if x != a:
                self.meet(a, x, -1)
                self.meet(b, x, 1)
        for y in second:
            if y != b:
                self.meet(b, y, -1)
                self.meet(a, y, 1)
        first[:] = self.rng.choice(orders_first)
        second[:] = self.rng.choice(orders_second)
        where[a], where[b] = tb, ta
        self.seat(first, 0)
        self.seat(second, 0)
        return pods

    def played_seat_cost(self, table: Sequence[int]) -> int:
        """What this table of round 0 adds to the squared seat counts of the rounds played
        and this one (the counts without its own seats)."""
        now = self.seats_now
        return sum(2 * now[p][position] + 1 for position, p in enumerate(table))

    def meet(self, a: int, b: int, times: int) -> None:
        self.meetings[a][b] += times
        self.meetings[b][a] += times

    def pods_cost_change(self, ta: int, tb: int, a: int, b: int) -> int:
        first, second = self.tables[0][ta], self.tables[0][tb]
        spread = 0
        for x in first:
            if x != a:
                spread += abs(b - x) - abs(a - x)
        for y in second:
            if y != b:
                spread += abs(a - y) - abs(b - y)
        change = spread * self.spread_weight
        if self.small_table[ta] != self.small_table[tb]:
            small = self.small_rank[b] - self.small_rank[a]
            change += (small if self.small_table[ta] else -small) * self.w_small
        return change

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


def seating_refusal(tournament: Tournament) -> str | None:
    """Why the next round cannot be seated now, or None: the desk shows it beside its
    disabled button, and seat_next_round refuses with it."""
    last = latest_round(tournament)
    number = 1 if last is None else last.number + 1
    if tournament.status == Tournament.Status.FINISHED:
        return f"{tournament} is finished; no more rounds"
    if number > tournament.rounds_planned:
        return f"{tournament} has {tournament.rounds_planned} rounds, all seated"
    if last is not None:
        pending = [t.number for t in last.tables.all() if t.result_kind == "pending"]
        if pending:
            tables = ", ".join(str(n) for n in pending)
            return f"round {last.number} still has no result at table(s) {tables}"
    return None


@transaction.atomic
def seat_next_round(tournament: Tournament) -> Round:
    """Seat the next round: tables, each in seat order from its opener (DV-3: the opening
    bidder is seat 0, marked on the seat)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    refusal = seating_refusal(tournament)
    if refusal is not None:
        raise SeatingError(refusal)
    number = next_round_number(tournament)
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
    notify_round_seated(round_)  # "you are seated at table N" (issue 23); mail after commit
    return round_
