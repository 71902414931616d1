"""Keeping the cubes equal to the sum of their lines: per game, or rebuilt from scratch.

Why deltas: when every verifying transaction upserted the cube rows itself, concurrent
workers queued on the same rows (a few hundred popular keys: every game of a game type and
player count moves the same strategy, seat and hex rows) until each commit, so adding
workers stopped adding throughput. Now the verifying transaction only appends: `add_games`
and `remove_game` (stats.receivers) insert the lines (packed a game to a row, COPY on
PostgreSQL) and, per cube, rows of its delta table (what these games add to each key,
negative for a retracted game), summed from the lines just stored as a rebuild sums them
(line_sums, in Python: the lines are packed): new rows only, which lock nothing another
worker needs.

One folder moves the deltas into the cubes and rollups (`fold_deltas`, run by
fold_deltas_task a second after a commit that appended some, and by celery beat
as a backstop): per cube one statement deletes the deltas it sees and upserts their sums
into the cube and into its rollups, atomically, so a delta is counted exactly once. Only one
fold runs at a time (a PostgreSQL advisory lock; a fold that finds it taken queues itself
again instead of waiting), so the only writer of cube rows is the folder, and it never waits
for a verifying worker nor they for it. Pages never lag: they read the live views (stats.models,
stats.filters), the cube plus the deltas not folded yet, in one statement's snapshot.

Alternatives weighed: per-worker partial cubes merged on read would still upsert (a worker's
own rows, but a key per worker multiplies the rows every page sums); folding from the line
tables by a watermark breaks on retraction (the lines are deleted). Both databases speak the
same SQL here but for the fold's atomic move: PostgreSQL's DELETE ... RETURNING in a WITH,
SQLite (one writer at a time anyway) the rows up to the last id, then their deletion.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import chain
from operator import attrgetter

import numpy
from celery import shared_task
from django.core.cache import cache as shared_cache
from django.db import connection, transaction
from django.db.models import (
    Count,
    IntegerField,
    Model,
    Q,
    QuerySet,
    Sum,
    Value,
    prefetch_related_objects,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Coalesce, NullIf

from common import cache
from common.database import (
    any_of,
    drain,
    hold_lock,
    insert_rows,
    postgresql,
    truncate,
    try_lock,
)
from common.outages import CACHE_UNREACHABLE, BrokerUnreachable
from engines.core.game import BID, TURN_ORDER
from games.models import Game, GameLog, GameSeat
from stats.models import (
    BY_MONTH,
    DELTAS,
    HEX_COUNTERS,
    HEX_DERIVED,
    HEX_LINE_COUNTERS,
    NO_TURN_ORDER,
    PAR_SCALE,
    ROLLUPS,
    SEAT_TALLY_SUMS,
    SLICE_FIELDS,
    BidCube,
    HexCube,
    HexLines,
    PairCube,
    PlayerHexTally,
    PlayerHexTallyDelta,
    PlayerSeatTally,
    PlayerSeatTallyDelta,
    RoundCube,
    ScoreCube,
    SeatCube,
    SeatLines,
    StrategyCube,
)
from stats.services import hex_packing, score_bins, seat_packing
from stats.services.bands import group_bands
from stats.services.game_lines import RoundRow
from stats.services.hex_packing import HexMatrix
from stats.services.lines import GameLines, SeatRow, build_lines_of

logger = logging.getLogger(__name__)

# Folds are queued at most once per this many seconds (a commit in between finds one queued).
FOLD_DEBOUNCE_SECONDS = 1
FOLD_QUEUED_KEY = "stats:fold-queued"
# pg_try_advisory_xact_lock key of the fold: "fold" in ASCII.
FOLD_LOCK = 0x666F6C64


# A game's lines as a cube counts them: per line its key and its counters' values. A key
# starts with its seat's slice as a number (`slices`: seat number -> the number standing for
# its slice in line_sums): a slice is seven values, and hashing it for every line of every
# cube was most of the time a sum took.
LineKeys = Iterator[tuple[tuple, tuple]]
CubeLines = Callable[[list[SeatRow], dict[int, int], list[RoundRow]], LineKeys]


@dataclass(frozen=True)
class CubeSpec:
    """A cube: its keys besides the slice, its counters, and how a game's lines give them.
    An unsliced one (the players' hexes' deltas) is keyed by its keys alone."""

    cube: type[Model]
    keys: tuple[str, ...]
    counters: tuple[str, ...]
    # None for the hex cube and the tally: their lines, packed apart (HexLines), are summed
    # by add_hexes.
    lines: CubeLines | None
    sliced: bool = True

    @property
    def key_fields(self) -> tuple[str, ...]:
        return (*SLICE_FIELDS, *self.keys) if self.sliced else self.keys

    @property
    def rollup(self) -> type[Model]:
        return ROLLUPS[self.cube]

    @property
    def rollup_key_fields(self) -> tuple[str, ...]:
        return tuple(name for name in self.key_fields if name != "month")

    @property
    def rollups(self) -> tuple[tuple[type[Model], tuple[str, ...]], ...]:
        """Every table the folder and the rebuild keep equal to the cube summed over some
        keys, with the keys it keeps: the month-free rollup, and those by month that pages
        with a date range read (stats.models.BY_MONTH)."""
        rollups = [(self.rollup, self.rollup_key_fields)]
        for table in BY_MONTH[self.cube]:
            kept = {field.name for field in table._meta.concrete_fields}
            rollups.append((table, tuple(name for name in self.key_fields if name in kept)))
        return tuple(rollups)

    @property
    def delta(self) -> type[Model]:
        return DELTAS[self.cube]

    @cached_property
    def zeros(self) -> tuple[int | float, ...]:
        """A key's sums before any line: n, then per counter 0 where its column holds whole
        numbers (a par in PAR_SCALE, a count), else 0.0. Whole sums stay ints in Python, so
        they are exact in any order and go to their integer columns as they are. Read from
        the delta table, which every spec has (the players' tally keeps its sums in JSON)."""
        return (
            0,
            *(
                0 if isinstance(self.delta._meta.get_field(name), IntegerField) else 0.0
                for name in self.counters
            ),
        )


def column(model: type[Model], name: str) -> str:
    return connection.ops.quote_name(model._meta.get_field(name).column)


slice_of = attrgetter(*SLICE_FIELDS)  # a seat line's slice, as a tuple


def par(seat: SeatRow) -> int:
    """A seat's par (1 / its table size) in whole numbers: times stats.models.PAR_SCALE."""
    return PAR_SCALE // seat.player_count


def strategy_lines(
    seats: list[SeatRow], slices: dict[int, int], rounds: list[RoundRow]
) -> LineKeys:
    """A seat's par in whole numbers (par)."""
    for s in seats:
        yield (slices[s.seat],), (s.wins, par(s), s.score, s.score_sq, s.rank)


def score_lines(seats: list[SeatRow], slices: dict[int, int], rounds: list[RoundRow]) -> LineKeys:
    for s in seats:
        yield (slices[s.seat], s.score_bin), ()


def seat_lines(seats: list[SeatRow], slices: dict[int, int], rounds: list[RoundRow]) -> LineKeys:
    """A seat's par in whole numbers (par)."""
    for s in seats:
        yield (slices[s.seat], s.seat, s.turn_order), (s.wins, par(s), s.score)


def bid_lines(seats: list[SeatRow], slices: dict[int, int], rounds: list[RoundRow]) -> LineKeys:
    """A seat's par in whole numbers (par)."""
    for s in seats:
        yield (slices[s.seat], s.turn_order, s.winning_bid), (s.wins, par(s))


def pair_lines(seats: list[SeatRow], slices: dict[int, int], rounds: list[RoundRow]) -> LineKeys:
    """A pair is two seat lines of one game: the seat's slice, its opponent's strategy, and
    whether it finished ahead of or behind that opponent."""
    for s in seats:
        for opponent in seats:
            if opponent.seat != s.seat:
                yield (
                    (slices[s.seat], opponent.strategy),
                    (float(s.rank < opponent.rank), float(s.rank > opponent.rank)),
                )


def round_lines(seats: list[SeatRow], slices: dict[int, int], rounds: list[RoundRow]) -> LineKeys:
    """A round line takes its slice from its seat's line."""
    for r in rounds:
        yield (slices[r.seat], r.round, r.moment), (r.points, r.drowned, r.depth)


CUBES = (
    CubeSpec(StrategyCube, (), ("wins", "expected", "score", "score_sq", "rank"), strategy_lines),
    CubeSpec(ScoreCube, ("score_bin",), (), score_lines),
    CubeSpec(SeatCube, ("seat", "turn_order"), ("wins", "expected", "score"), seat_lines),
    CubeSpec(BidCube, ("turn_order", "winning_bid"), ("wins", "expected"), bid_lines),
    CubeSpec(PairCube, ("opponent",), ("ahead", "behind"), pair_lines),
    CubeSpec(HexCube, ("hex",), HEX_COUNTERS, None),
    CubeSpec(RoundCube, ("round", "moment"), ("points", "drowned", "depth"), round_lines),
)
# Per player with a name, how often they took each hex type: summed and appended as deltas
# as a cube's are, folded into a row a player (fold_player_hexes); not among CUBES, which
# the statistics pages read by slice.
PLAYER_HEXES = CubeSpec(PlayerHexTally, ("player", "hex"), ("taken",), None, sliced=False)
# Every sum line_sums gives: the cubes' and the players' hexes.
SUMMED = (*CUBES, PLAYER_HEXES)
# Games whose packed lines are read per query.
CHUNK = 2000

# Per cube, each key's sums: [n, *the cube's counters], each an int or a float as its column
# holds (CubeSpec.zeros).
Sums = dict[CubeSpec, dict[tuple, list[int | float]]]


def line_sums(game_ids: list[int] | None = None, sign: int = 1) -> Sums:
    """What the stored lines of these games (of every game when None) add to each key of
    every cube and the players' hex tally (SUMMED), times `sign`, summed here from their
    packed values."""
    sums: Sums = {spec: {} for spec in SUMMED}
    slices: dict[tuple, int] = {}  # each slice met, numbered in the order met
    if game_ids is not None:
        for start in range(0, len(game_ids), CHUNK):
            add_games_lines(sums, slices, game_ids[start : start + CHUNK], sign)
    else:
        last = 0
        while chunk := list(
            SeatLines.objects.filter(game_id__gt=last)
            .order_by("game_id")
            .values_list("game_id", flat=True)[:CHUNK]
        ):
            add_games_lines(sums, slices, chunk, sign)
            last = chunk[-1]
    return keyed_by_slice(sums, slices)


def built_line_sums(games: list[GameLines], sign: int = 1) -> Sums:
    """line_sums of these games' lines as built, before or after save_lines stored them:
    the same sums without reading back and unpacking what was just packed (issue 25). The
    games save_lines stores no lines of are left out, and the hex counts are cut to the
    whole numbers it packs (hex_packing.layout_matrix), so a rebuild sums what this did."""
    sums: Sums = {spec: {} for spec in SUMMED}
    slices: dict[tuple, int] = {}
    for start in range(0, len(games), CHUNK):
        chunk = [lines for lines in games[start : start + CHUNK] if lines.seats]
        seats = [(lines.seats[0].game_id, lines.seats, lines.rounds) for lines in chunk]
        hexes = [
            (lines.seats[0].game_id, lines.hexes._replace(counts=whole(lines.hexes.counts)))
            for lines in chunk
            if lines.hexes is not None and lines.hexes.seats
        ]
        add_lines(sums, slices, seats, hexes, sign)
    return keyed_by_slice(sums, slices)


def whole(counts: numpy.ndarray) -> numpy.ndarray:
    """Counts as hex_packing packs them: whole numbers, cut towards zero."""
    return counts.astype(numpy.int64, copy=False)


def keyed_by_slice(sums: Sums, slices: dict[tuple, int]) -> Sums:
    """The sums keyed as the cubes are: each slice's number (add_lines) back to its fields."""
    numbered = list(slices)
    return {
        spec: {(*numbered[key[0]], *key[1:]): total for key, total in by_key.items()}
        if spec.sliced
        else by_key
        for spec, by_key in sums.items()
    }


def add_games_lines(sums: Sums, slices: dict[tuple, int], game_ids: list[int], sign: int) -> None:
    """Add these games' stored lines to `sums` (add_lines)."""
    stored = SeatLines.objects.filter(any_of("game_id", game_ids))
    seats = [
        (game_id, *seat_packing.unpack(game_id, month, bytes(packed)))
        for game_id, month, packed in stored.values_list("game_id", "month", "packed")
    ]
    if not seats:
        return
    hexes = [
        (game_id, hex_packing.unpack_matrix(bytes(packed)))
        for game_id, packed in HexLines.objects.filter(any_of("game_id", game_ids)).values_list(
            "game_id", "packed"
        )
    ]
    add_lines(sums, slices, seats, hexes, sign)


def add_lines(
    sums: Sums,
    slices: dict[tuple, int],
    games: list[tuple[int, list[SeatRow], list[RoundRow]]],
    hexes: list[tuple[int, HexMatrix]],
    sign: int,
) -> None:
    """Add these games' lines (per game its id, seat lines and round lines; and per game
    with hex lines its id and their matrix) to `sums`, their keys led by their slice's
    number in `slices`."""
    seats_of: dict[int, tuple[list[SeatRow], dict[int, int]]] = {}
    lined = [(spec, spec.zeros) for spec in CUBES if spec.lines is not None]
    for game_id, seats, rounds in games:
        numbers = {s.seat: slices.setdefault(slice_of(s), len(slices)) for s in seats}
        seats_of[game_id] = (seats, numbers)
        for spec, zeros in lined:
            totals = sums[spec]
            for key, values in spec.lines(seats, numbers, rounds):
                total = totals.get(key)
                if total is None:
                    total = totals[key] = list(zeros)
                total[0] += sign
                for at, value in enumerate(values, 1):
                    total[at] += sign * value
    add_hexes(sums[HEX_CUBE], sums[PLAYER_HEXES], hexes, seats_of, sign)


def append_deltas(game_ids: list[int], sign: int) -> None:
    """Append what these games' stored lines add to every cube (sign 1) or take away (sign
    -1) as delta rows, and have them folded in once the transaction commits. The lines are
    summed as a rebuild sums them all (line_sums); the rows are new (plain inserts), so
    nothing another transaction holds is touched."""
    if game_ids:
        insert_deltas(line_sums(game_ids, sign))


def insert_deltas(sums: Sums) -> None:
    """Append these sums (line_sums) as delta rows, folded in once the transaction commits."""
    for spec, by_key in sums.items():
        if by_key:
            insert_sums(spec.delta, spec, by_key)
    transaction.on_commit(queue_fold)


def queue_fold() -> None:
    """Queue a fold FOLD_DEBOUNCE_SECONDS from now unless one is queued already (the fold
    clears the mark as it starts, so deltas committed after that get a fold of their own).
    A broker or cache outage only delays the fold to the beat's backstop: pages read the
    deltas meanwhile."""
    try:
        if shared_cache.add(FOLD_QUEUED_KEY, 1, timeout=10 * FOLD_DEBOUNCE_SECONDS):
            fold_deltas_task.apply_async(countdown=FOLD_DEBOUNCE_SECONDS)
    except (BrokerUnreachable, *CACHE_UNREACHABLE) as error:  # the verdict is committed
        logger.warning("statistics fold not queued (the beat will fold): %s", error)


def fold_deltas() -> int | None:
    """Move every committed delta into its cube and rollups; the delta rows moved, or None
    when another fold holds the lock (it runs now; the caller may try again shortly)."""
    with transaction.atomic():
        if not try_lock(FOLD_LOCK):
            return None
        return sum(fold_cube(spec) for spec in CUBES) + fold_player_hexes() + fold_player_seats()


def fold_cube(spec: CubeSpec) -> int:
    quote = connection.ops.quote_name

    def columns(model: type[Model], names: Iterable[str]) -> list[str]:
        return [quote(model._meta.get_field(name).column) for name in names]

    delta = quote(spec.delta._meta.db_table)
    sums = ("n", *spec.counters)

    def upsert(target: type[Model], keys: tuple[str, ...], source: str) -> str:
        table = quote(target._meta.db_table)
        key_columns, sum_columns = columns(target, keys), columns(target, sums)
        summed = [f"SUM({c})" for c in columns(spec.delta, sums)]
        updates = ", ".join(f"{c} = {table}.{c} + excluded.{c}" for c in sum_columns)
        return (
            f"INSERT INTO {table} ({', '.join(key_columns + sum_columns)}) "
            f"SELECT {', '.join(columns(spec.delta, keys) + summed)} FROM {source} "
            f"GROUP BY {', '.join(columns(spec.delta, keys))} "
            f"ON CONFLICT ({', '.join(key_columns)}) DO UPDATE SET {updates}"
        )

    def into(source: str) -> list[str]:
        return [
            upsert(spec.cube, spec.key_fields, source),
            *(upsert(rollup, keys, source) for rollup, keys in spec.rollups),
            *(score_bins.marked_stale(source) if spec.cube is ScoreCube else ()),
        ]

    moved = drain(delta, columns(spec.delta, (*spec.key_fields, *sums)), into)
    if spec.cube is ScoreCube:
        score_bins.pack_stale()  # from the tables as the statement above left them
    return moved


def fold_player_hexes() -> int:
    """Move the players' hex deltas into their rows of PlayerHexTally (under the fold's
    lock: the fold is their one writer); the delta rows moved. One statement deletes the
    deltas and returns them, so none committed meanwhile is lost."""
    if postgresql():
        return fold_player_hexes_in_postgresql()
    return fold_player_hexes_in_python()


def fold_player_hexes_in_python() -> int:
    """fold_player_hexes read into Python: SQLite's (it has no jsonb_each to sum the tallies
    with), and PostgreSQL's before fold_player_hexes_in_postgresql; it runs on both, so a
    test holds the two folds equal under PostgreSQL."""
    quote = connection.ops.quote_name
    names = [column(PlayerHexTallyDelta, name) for name in ("player", "hex", "taken")]
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {quote(PlayerHexTallyDelta._meta.db_table)} RETURNING {', '.join(names)}"
        )
        moved = cursor.fetchall()
    changes: defaultdict[int, Counter[str]] = defaultdict(Counter)
    for player, hex_id, taken in moved:
        changes[player][hex_id] += round(taken)
    stored = PlayerHexTally.objects.filter(any_of("player_id", list(changes)))
    tallies = dict(stored.values_list("player_id", "taken"))
    rows, emptied = [], []
    for player, change in changes.items():
        taken = Counter(tallies.get(player, {}))
        taken.update(change)  # adds, negative changes too
        kept = {hex_id: times for hex_id, times in sorted(taken.items()) if times}
        if kept:
            rows.append(PlayerHexTally(player_id=player, taken=kept))
        else:
            emptied.append(player)
    PlayerHexTally.objects.filter(player_id__in=emptied).delete()
    PlayerHexTally.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["player"], update_fields=["taken"]
    )
    return len(moved)


def fold_player_hexes_in_postgresql() -> int:
    """fold_player_hexes in one statement: the deltas deleted, each changed player's tally
    summed with them hex type by hex type (jsonb_each), the types at 0 left out, and the row
    written again (or deleted when nothing is left). Read into Python, each fold's few
    hundred tallies were parsed, counted and encoded again: some 6% of a worker's CPU per
    verified log (benchmarks/worker_cost.py, issue 25)."""
    quote = connection.ops.quote_name
    delta, tally = (quote(model._meta.db_table) for model in (PlayerHexTallyDelta, PlayerHexTally))
    player, hex_id, taken = (column(PlayerHexTallyDelta, n) for n in ("player", "hex", "taken"))
    owner, kept = column(PlayerHexTally, "player"), column(PlayerHexTally, "taken")
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH moved AS (DELETE FROM {delta} RETURNING {player}, {hex_id}, {taken}),
            changed AS (
                SELECT {player} AS player, {hex_id} AS hex, ROUND(SUM({taken}))::numeric AS taken
                FROM moved GROUP BY {player}, {hex_id}
            ),
            summed AS (
                SELECT player, hex, SUM(taken) AS taken FROM (
                    SELECT player, hex, taken FROM changed
                    UNION ALL
                    SELECT t.{owner}, e.key, e.value::numeric
                    FROM {tally} t CROSS JOIN LATERAL jsonb_each(t.{kept}) e
                    WHERE t.{owner} IN (SELECT player FROM changed)
                ) AS both_ GROUP BY player, hex
            ),
            left_ AS (
                SELECT player, jsonb_object_agg(hex, taken::bigint) AS taken
                FROM summed WHERE taken <> 0 GROUP BY player
            ),
            emptied AS (
                DELETE FROM {tally}
                WHERE {owner} IN (SELECT player FROM changed)
                AND {owner} NOT IN (SELECT player FROM left_)
            ),
            written AS (
                INSERT INTO {tally} ({owner}, {kept}) SELECT player, taken FROM left_
                ON CONFLICT ({owner}) DO UPDATE SET {kept} = EXCLUDED.{kept}
            )
            SELECT COUNT(*) FROM moved
            """
        )
        return cursor.fetchone()[0]


def rebuild_player_hexes(sums: dict[tuple, list[float]]) -> int:
    """Empty the players' hex tally and its deltas and fill it again from the lines' sums
    (line_sums, keyed by player and hex type); the rows written."""
    empty(PlayerHexTallyDelta, PlayerHexTally)
    tallies: defaultdict[int, dict[str, int]] = defaultdict(dict)
    for (player, hex_id), (_, taken) in sorted(sums.items()):
        if round(taken):
            tallies[player][hex_id] = round(taken)
    PlayerHexTally.objects.bulk_create(
        (PlayerHexTally(player_id=player, taken=taken) for player, taken in tallies.items()),
        batch_size=CHUNK,
    )
    return len(tallies)


def remove_game(game: Game) -> None:
    """Take a game out of every cube (idempotent: a game not counted changes nothing)."""
    with transaction.atomic():
        lines = SeatLines.objects.filter(game=game)
        if not lines.exists():
            return
        append_deltas([game.pk], -1)
        insert_seat_deltas(seat_tally_sums(GameSeat.objects.filter(game_id=game.pk), -1))
        lines.delete()
        HexLines.objects.filter(game=game).delete()


def add_game(game: Game) -> None:
    """Count a verified game; counting it again replaces its earlier lines."""
    add_games([game])


def add_games(games: list[Game]) -> None:
    """Count verified games together: their lines in bulk, then their deltas, one insert
    per cube for all of them."""
    with transaction.atomic():
        counted = SeatLines.objects.filter(any_of("game_id", [game.pk for game in games]))
        counted = set(counted.values_list("game_id", flat=True))
        for game in games:
            if game.pk in counted:
                remove_game(game)
        prefetch_related_objects(games, "seats")  # a no-op when verification did it
        bands = group_bands(games)
        lines = build_lines_of(games, bands)
        save_lines(lines)
        # Summed from the lines in hand: the same as reading back what save_lines stored.
        insert_deltas(built_line_sums(lines))
        insert_seat_deltas(seat_tally_sums(chain.from_iterable(g.seats.all() for g in games), 1))


def save_lines(games: list[GameLines]) -> None:
    """Insert lines of many games, packed a game to a row, each table in one COPY."""
    seats = [
        (
            lines.seats[0].game_id,
            lines.seats[0].month,
            seat_packing.pack(lines.seats, lines.rounds),
        )
        for lines in games
        if lines.seats
    ]
    if seats:
        insert_rows(SeatLines, ("game_id", "month", "packed"), seats)
    hexes = [
        (lines.seats[0].game_id, hex_packing.pack_matrix(*lines.hexes))
        for lines in games
        if lines.hexes is not None and lines.hexes.seats
    ]
    if hexes:
        insert_rows(HexLines, ("game_id", "packed"), hexes)


# Where a packed line's counts and the twins derived from them go among a hex cube's sums
# (after n), and which seat line value (0: wins, 1: par in PAR_SCALE) weighs each twin.
HEX_SUM_AT = [1 + HEX_COUNTERS.index(name) for name in HEX_LINE_COUNTERS]
HEX_TWINS = [
    (1 + HEX_COUNTERS.index(twin), HEX_LINE_COUNTERS.index(flag), ("wins", "expected").index(by))
    for twin, (flag, by) in HEX_DERIVED.items()
]
HEX_CUBE = next(spec for spec in CUBES if spec.cube is HexCube)
TAKEN = HEX_LINE_COUNTERS.index("taken")


def add_hexes(
    sums: dict[tuple, list[float]],
    tally: dict[tuple, list[float]],
    matrices: list[tuple[int, HexMatrix]],
    seats_of: dict[int, tuple[list[SeatRow], dict[int, int]]],
    sign: int,
) -> None:
    """Add what these games' hex lines (per game its id and their matrix) give each hex
    cube key (its seat's slice number, the hex type), times `sign`: the twins weighed by
    their seat's line (seats_of: game id -> its seat lines and their slices' numbers, as
    add_lines has them); and to `tally` (the players' hex tally's sums, keyed by player and
    hex type) the takes of seats with a player. By numpy over all the lines at once, each
    line's key one number (its seat's slice, its hex type): a Python step per line, some
    eighty a game, was most of the rebuild's time and a tenth of a verified group's
    statistics (issue 25); Python then steps per key."""
    if not matrices:
        return
    # Per game and seat (a row each, found by the game's place in `matrices` and the seat's
    # number): its slice's number, its wins and par (in PAR_SCALE), its player (-1: none).
    at = {game: place for place, (game, _) in enumerate(matrices)}
    seated = [
        (
            at[game],
            s.seat,
            numbers[s.seat],
            s.wins,
            par(s),
            -1 if s.player is None else s.player,
        )
        for game, (lines, numbers) in seats_of.items()
        if game in at
        for s in lines
    ]
    places, seat_numbers, slices, wins, expected, players = (
        numpy.array(column) for column in zip(*seated, strict=True)
    )
    shape = (len(matrices), int(seat_numbers.max()) + 1)
    slice_of, player_of = numpy.full(shape, -1), numpy.full(shape, -1)
    weighing = numpy.zeros((*shape, 2))
    slice_of[places, seat_numbers] = slices
    player_of[places, seat_numbers] = players
    weighing[places, seat_numbers] = numpy.column_stack([wins, expected])
    # Per line: its game's place and its seat, its hex type's number in `names`.
    games = numpy.repeat(numpy.arange(len(matrices)), [len(m.seats) for _, m in matrices])
    seats = numpy.frombuffer(b"".join(m.seats for _, m in matrices), numpy.uint8)
    hexes = list(chain.from_iterable(m.hexes for _, m in matrices))
    names = list(dict.fromkeys(hexes))
    numbered = {name: number for number, name in enumerate(names)}
    hex_numbers = numpy.fromiter(map(numbered.__getitem__, hexes), numpy.intp, len(hexes))
    line_slices = slice_of[games, seats]
    if (line_slices < 0).any():
        raise KeyError("a hex line's seat has no seat line")
    keys, key_of = numpy.unique(line_slices * len(names) + hex_numbers, return_inverse=True)
    counts = numpy.concatenate([m.counts for _, m in matrices]).astype(numpy.float64)
    weighed = weighing[games, seats]
    summed = numpy.zeros((len(keys), 1 + len(HEX_COUNTERS)))
    summed[:, 0] = numpy.bincount(key_of, minlength=len(keys))
    for column_at, column in zip(HEX_SUM_AT, counts.T, strict=True):
        summed[:, column_at] = numpy.bincount(key_of, weights=column, minlength=len(keys))
    for column_at, flag, weight in HEX_TWINS:
        twins = counts[:, flag] * weighed[:, weight]
        summed[:, column_at] = numpy.bincount(key_of, weights=twins, minlength=len(keys))
    # + 0.0: a retraction's -0.0 (a 0 times -1) as the 0.0 that summing from 0.0 gave.
    add_rows(sums, numbered_keys(keys, names), as_lists(summed * sign + 0.0, HEX_WHOLE))
    # The players' tally: the lines taken at all, of seats with a player, per player and
    # hex type.
    taken = counts[:, TAKEN]
    line_players = player_of[games, seats]
    tallied = (taken != 0) & (line_players >= 0)
    pairs, pair_of = numpy.unique(
        line_players[tallied] * len(names) + hex_numbers[tallied], return_inverse=True
    )
    times = numpy.bincount(pair_of, minlength=len(pairs))
    amounts = numpy.bincount(pair_of, weights=taken[tallied], minlength=len(pairs))
    taken_sums = numpy.column_stack([times * sign, amounts * sign + 0.0])
    add_rows(tally, numbered_keys(pairs, names), as_lists(taken_sums, TALLY_WHOLE))


HEX_WHOLE = [at for at, zero in enumerate(HEX_CUBE.zeros) if isinstance(zero, int)]
TALLY_WHOLE = [at for at, zero in enumerate(PLAYER_HEXES.zeros) if isinstance(zero, int)]


def as_lists(summed: numpy.ndarray, whole: list[int]) -> list[list[int | float]]:
    """The rows of a matrix of sums as lists of Python numbers: the columns at `whole` as
    ints (bincount sums in floats, and these columns' sums, whole numbers far below 2**53,
    are exact), the others as floats; converted by numpy, not a value at a time."""
    rows = summed.astype(object)
    rows[:, whole] = summed[:, whole].astype(numpy.int64).astype(object)
    return rows.tolist()


def numbered_keys(keys: numpy.ndarray, names: list[str]) -> Iterator[tuple[int, str]]:
    """Keys numbered as add_hexes numbers them (a slice's number or a player, times the
    number of `names`, plus a hex type's place in `names`) as the (number, hex type) they
    stand for."""
    firsts, hex_numbers = numpy.divmod(keys, len(names))
    return zip(firsts.tolist(), map(names.__getitem__, hex_numbers.tolist()), strict=True)


def add_rows(
    sums: dict[tuple, list[int | float]], keys: Iterable[tuple], rows: list[list[int | float]]
) -> None:
    """Add to `sums` a row of sums per key. A key's first row is its sums as it is (0 + x
    is x); only a key met before (a rebuild's later chunk) is added to value by value.
    Added a value at a time, the players' tally (some 2,300 keys a group of 100 games of
    the benchmarks) and the hex cube's keys took a tenth of a group's sums (issue 25:
    built_line_sums 728k instructions a game then, 652k now, callgrind)."""
    for key, row in zip(keys, rows, strict=True):
        total = sums.get(key)
        if total is None:
            sums[key] = row
        else:
            for at, value in enumerate(row):
                total[at] += value


def insert_sums(table: type[Model], spec: CubeSpec, sums: dict[tuple, list[int | float]]) -> int:
    """Sums keyed as the cube (line_sums) as rows of the cube or its delta table, in
    month order (as rebuild_cube writes a cube); the rows inserted. Whole counters come
    summed as ints (CubeSpec.zeros), as a binary COPY to an integer column needs them."""
    rows = [(*key, *values) for key, values in sums.items()]
    if spec.sliced:
        month = spec.key_fields.index("month")
        rows.sort(key=lambda r: r[month])
    insert_rows(table, (*spec.key_fields, "n", *spec.counters), rows)
    return len(rows)


def seat_lines_rewritten(
    game_ids: list[int], rewrite: Callable[[int, SeatRow], SeatRow]
) -> list[SeatLines]:
    """These games' seat lines whose seats `rewrite` (game id, seat) changes, packed again
    (unsaved): for a players' merge (players) and a catch-up's bands (rebanding)."""
    changed = []
    for start in range(0, len(game_ids), CHUNK):
        stored = SeatLines.objects.filter(any_of("game_id", game_ids[start : start + CHUNK]))
        for game_id, month, packed in stored.values_list("game_id", "month", "packed"):
            seats, rounds = seat_packing.unpack(game_id, month, bytes(packed))
            rewritten = [rewrite(game_id, seat) for seat in seats]
            if rewritten != seats:
                packed = seat_packing.pack(rewritten, rounds)
                changed.append(SeatLines(game_id=game_id, month=month, packed=packed))
    return changed


def move_merged_players(keep: int, duplicates: list[int], games: list[int]) -> None:
    """A players' merge (players.merge, inside its transaction): the duplicates' seats in
    the packed seat lines of `games` (those whose game seats moved: games.signals
    game_seats_merged) become `keep`'s, and their hex tally too (as deltas, folded into
    keep's rows), so that a rebuild from the lines gives what the fold keeps. Only those
    games' lines are read: keep's other games name no duplicate."""
    if not duplicates:
        return
    hold_lock(FOLD_LOCK)  # no fold moves the duplicates' deltas while they are moved here
    moved = set(duplicates)
    changed = seat_lines_rewritten(
        games, lambda _game, seat: seat._replace(player=keep) if seat.player in moved else seat
    )
    SeatLines.objects.bulk_update(changed, ["packed"], batch_size=CHUNK)
    PlayerHexTallyDelta.objects.filter(player__in=duplicates).update(player=keep)
    tallied = PlayerHexTally.objects.filter(player_id__in=duplicates)
    rows = [
        (keep, hex_id, 0, times)
        for taken in tallied.values_list("taken", flat=True)
        for hex_id, times in taken.items()
    ]
    tallied.delete()
    if rows:
        insert_rows(PlayerHexTallyDelta, ("player", "hex", "n", "taken"), rows)
        transaction.on_commit(queue_fold)


# --- the players' seats ------------------------------------------------------------------
#
# PlayerSeatTally sums game seats, not lines: a seat's own bid is in its summary only (the
# seat lines keep the game's winning bid). Its deltas are summed from the seats of the games
# counted (in hand) or retracted (read, a few rows); a rebuild sums the seats of every game
# with seat lines, the games the statistics count, in one query.


def seat_tally_sums(seats: Iterable[GameSeat], sign: int) -> dict[tuple[int, int], list[int]]:
    """What these seats add to PlayerSeatTally, times `sign`: per player and turn order
    (as the seat lines read it: NO_TURN_ORDER where none) its SEAT_TALLY_SUMS. A bot's seat
    (no player) adds nothing."""
    sums: dict[tuple[int, int], list[int]] = {}
    for seat in seats:
        if seat.player_id is None:
            continue
        summary = seat.summary or {}
        key = (seat.player_id, summary.get(TURN_ORDER) or NO_TURN_ORDER)
        total = sums.setdefault(key, [0] * len(SEAT_TALLY_SUMS))
        total[0] += sign
        total[1] += sign * seat.winner
        total[2] += sign * seat.rank
        bid = summary.get(BID)
        if bid is not None:
            total[3] += sign
            total[4] += sign * bid
    return sums


def insert_seat_deltas(sums: dict[tuple[int, int], list[int]]) -> None:
    """Append these sums (seat_tally_sums) as PlayerSeatTallyDelta rows; the fold is queued
    by the caller's other deltas (insert_deltas)."""
    rows = [(player, turn_order, *values) for (player, turn_order), values in sums.items()]
    if rows:
        insert_rows(PlayerSeatTallyDelta, ("player", "turn_order", *SEAT_TALLY_SUMS), rows)


def fold_player_seats() -> int:
    """Move the players' seat deltas into PlayerSeatTally as a cube's are moved (under the
    fold's lock: one statement deletes them and upserts their sums), then delete the rows
    left with no seat (every counter of a row sums the same seats, so all are 0 then); the
    delta rows moved."""
    quote = connection.ops.quote_name
    tally = quote(PlayerSeatTally._meta.db_table)
    delta = quote(PlayerSeatTallyDelta._meta.db_table)
    keys = ("player", "turn_order")
    key_columns = [column(PlayerSeatTally, name) for name in keys]
    sum_columns = [column(PlayerSeatTally, name) for name in SEAT_TALLY_SUMS]
    delta_keys = [column(PlayerSeatTallyDelta, name) for name in keys]
    delta_sums = [column(PlayerSeatTallyDelta, name) for name in SEAT_TALLY_SUMS]
    updates = ", ".join(f"{c} = {tally}.{c} + excluded.{c}" for c in sum_columns)

    def into(source: str) -> list[str]:
        return [
            f"INSERT INTO {tally} ({', '.join(key_columns + sum_columns)}) "
            f"SELECT {', '.join(delta_keys + [f'SUM({c})' for c in delta_sums])} "
            f"FROM {source} GROUP BY {', '.join(delta_keys)} "
            f"ON CONFLICT ({', '.join(key_columns)}) DO UPDATE SET {updates}"
        ]

    moved = drain(delta, delta_keys + delta_sums, into)
    if moved:
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {tally} WHERE {column(PlayerSeatTally, 'n')} = 0")
    return moved


def summary_number(key: str) -> Cast:
    """A number of the seats' summaries (GameSeat.summary) for the database to sum; NULL
    where the key is missing or null, as seat_tally_sums reads it (SQLite's text of a JSON
    null is "null", which would cast to 0)."""
    return Cast(NullIf(KeyTextTransform(key, "summary"), Value("null")), IntegerField())


def counted_seat_sums() -> QuerySet:
    """seat_tally_sums of the seats of every game with seat lines, by the database: rows
    of (player, turn order, *SEAT_TALLY_SUMS), in key order."""
    seats = GameSeat.objects.filter(
        player__isnull=False, game_id__in=SeatLines.objects.values("game_id")
    )
    return (
        seats.annotate(
            turn=Coalesce(summary_number(TURN_ORDER), NO_TURN_ORDER), bid=summary_number(BID)
        )
        .values("player_id", "turn")
        .annotate(
            seats=Count("seat"),
            won=Count("seat", filter=Q(winner=True)),
            rank_total=Sum("rank"),
            with_bid=Count("bid"),
            bid_sum=Coalesce(Sum("bid"), 0),
        )
        .order_by("player_id", "turn")
        .values_list("player_id", "turn", "seats", "won", "rank_total", "with_bid", "bid_sum")
    )


def rebuild_player_seats() -> int:
    """Empty the players' seat tally and its deltas and fill it again from the seats of
    the games with seat lines (counted_seat_sums); the rows written."""
    empty(PlayerSeatTallyDelta, PlayerSeatTally)
    rows = list(counted_seat_sums())
    insert_rows(PlayerSeatTally, ("player_id", "turn_order", *SEAT_TALLY_SUMS), rows)
    return len(rows)


def move_merged_seat_tally(keep: int, duplicates: list[int]) -> None:
    """A players' merge (inside its transaction): the duplicates' seat tally becomes
    `keep`'s, as deltas folded into keep's rows (their deltas not folded yet too), so that
    a rebuild from the moved game seats gives what the fold keeps."""
    if not duplicates:
        return
    hold_lock(FOLD_LOCK)  # no fold moves the duplicates' deltas while they are moved here
    PlayerSeatTallyDelta.objects.filter(player__in=duplicates).update(player=keep)
    tallied = PlayerSeatTally.objects.filter(player_id__in=duplicates)
    rows = [(keep, *row) for row in tallied.values_list("turn_order", *SEAT_TALLY_SUMS)]
    tallied.delete()
    if rows:
        insert_rows(PlayerSeatTallyDelta, ("player", "turn_order", *SEAT_TALLY_SUMS), rows)
        transaction.on_commit(queue_fold)


# --- rebuilding ----------------------------------------------------------------------------


def empty(*cubes: type[Model]) -> None:
    """Delete every row. On PostgreSQL by TRUNCATE (transactional there): rows deleted in
    the same transaction stay in the unique index until it commits, and each row inserted
    again with the same key checked them, which made refilling four times slower. Pages
    reading the cube wait for the rebuild to commit (the page cache serves them meanwhile)."""
    truncate(*cubes)


def rebuild_cube(spec: CubeSpec, sums: dict[tuple, list[int | float]]) -> int:
    """Empty one cube and its rollups and fill them again: the cube from its lines' sums
    (line_sums), in month order, then the rollups from the cube by the database."""
    quote = connection.ops.quote_name
    # The deltas too: the lines hold what they would add.
    empty(spec.delta, spec.cube, *(rollup for rollup, _ in spec.rollups))
    # In month order: a date range then reads a run of pages, not a row on almost every
    # page. Later months are appended in order as games come, and a fold's update stays on
    # its row's page (fillfactor, migration 0003).
    created = insert_sums(spec.cube, spec, sums)
    # The rollups from the cube, a few rows per line summed above.
    summed = [f"SUM({column(spec.cube, name)})" for name in ("n", *spec.counters)]
    with connection.cursor() as cursor:
        for rollup, keys in spec.rollups:
            key_columns = [column(rollup, name) for name in keys]
            targets = [column(rollup, name) for name in ("n", *spec.counters)]
            # Those by month in month order, as the cube: a date range reads a run of pages.
            in_order = f" ORDER BY {column(rollup, 'month')}" if "month" in keys else ""
            cursor.execute(
                f"INSERT INTO {quote(rollup._meta.db_table)} "
                f"({', '.join([*key_columns, *targets])}) "
                f"SELECT {', '.join([*key_columns, *summed])} "
                f"FROM {quote(spec.cube._meta.db_table)} GROUP BY {', '.join(key_columns)}"
                f"{in_order}"
            )
    if spec.cube is ScoreCube:
        score_bins.pack_all()
    return created


def rebuild_cubes() -> dict[str, float]:
    """Every cube from the stored lines, read once for all of them; returns seconds for
    summing the lines and per cube for writing it."""
    timings = {}
    with transaction.atomic():
        hold_lock(FOLD_LOCK)  # no fold meanwhile (waits for one running)
        started = time.perf_counter()
        sums = line_sums()
        timings["lines summed"] = time.perf_counter() - started
        for spec in CUBES:
            started = time.perf_counter()
            rebuild_cube(spec, sums.pop(spec))
            timings[spec.cube.__name__] = time.perf_counter() - started
        started = time.perf_counter()
        rebuild_player_hexes(sums.pop(PLAYER_HEXES))
        timings[PlayerHexTally.__name__] = time.perf_counter() - started
        started = time.perf_counter()
        rebuild_player_seats()
        timings[PlayerSeatTally.__name__] = time.perf_counter() - started
    return timings


def verified_games() -> Iterator[Game]:
    return (
        Game.objects.filter(log__status=GameLog.Status.VERIFIED, counts=True)
        .select_related("log")  # the facts are replayed from it (Game.facts)
        .prefetch_related("seats")
        .order_by("pk")
        .iterator(chunk_size=500)
    )


def rebuild_lines(games_per_batch: int = 500) -> int:
    """Derive every verified game's lines again from its facts (after a change of
    definitions); the cubes must then be rebuilt."""
    for model in (HexLines, SeatLines):
        model.objects.all().delete()
    counted = 0
    batch: list[GameLines] = []
    games: list[Game] = []
    for game in verified_games():
        games.append(game)
        if len(games) >= REPLAYED_AT_ONCE:
            batch += lines_replayed(games)
            games = []
        if len(batch) >= games_per_batch:
            save_lines(batch)
            counted += len(batch)
            batch = []
    batch += lines_replayed(games)
    save_lines(batch)
    return counted + len(batch)


# Games replayed for their lines at a time: their facts are held until their lines are built.
REPLAYED_AT_ONCE = 50


def lines_replayed(games: list[Game]) -> list[GameLines]:
    """The lines of these games (read from the database: their facts replayed), built
    together; their facts let go of after."""
    built = build_lines_of(games, group_bands(games)) if games else []
    for game in games:
        game.facts = None
    return built


def rebuild_all(from_facts: bool = False) -> dict[str, float]:
    """Rebuild every aggregate from scratch: the cubes from the lines, and first the lines
    from the games' facts when asked."""
    timings: dict[str, float] = defaultdict(float)
    with transaction.atomic():
        if from_facts:
            started = time.perf_counter()
            timings["games"] = rebuild_lines()
            timings["lines"] = time.perf_counter() - started
        timings.update(rebuild_cubes())
        # Pages cached from the old cubes are retired once the new ones are committed.
        transaction.on_commit(lambda: cache.bump_all(cache.STATS))
    return dict(timings)


@shared_task(name="stats.tasks.fold_deltas_task")
def fold_deltas_task() -> None:
    """Fold the statistics deltas into the cubes: queued after commits that appended some
    (debounced) and by celery beat as a backstop."""
    shared_cache.delete(FOLD_QUEUED_KEY)  # deltas committed from now on queue a new fold
    if fold_deltas() is None:
        queue_fold()  # another fold runs now; this one goes again after it
