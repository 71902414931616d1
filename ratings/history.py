"""Each player's rating history, packed (issue 25): what their page's chart reads.

A player's rating changes lie scattered over the whole of `ratings_ratingchange` (a row is
written when its game is rated): the busiest player's 4,229 at 1M games sit on some 3,600 of
its pages, and reading them was most of their page's time. Their history is kept here too,
as lichess keeps a user's: rows of CHUNK points packed (pack), a player's read by one index
range (RatingHistory). Only full chunks are stored: the points after a player's last chunk
(fewer than CHUNK) are read from the rating changes themselves (history_of), so a game
rated writes nothing here but every CHUNK-th game of a player, which packs the chunk it
completes (the rater's cost, and no row rewritten a game).

Derived data, kept equal to RatingChange by the one who writes it, the rater
(ratings.services), holding the game type's ledger lock: `cut` after games later than
everything their players were rated for, `cut_from` after a catch-up that redid the games
from a point on, `rebuild` for a whole game type (a recompute, a merge) and for a database
that had none (the migration). A point is (microseconds since 1970, game id, Elo, mu,
sigma), in the rating order (played_at, game id); chunk n of a player and type holds their
points n x CHUNK to (n + 1) x CHUNK - 1.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import operator
import zlib
from collections.abc import Collection, Mapping

import numpy as np
from django.db import connection
from django.db.models import Q

from common.compiled import Statement, read_one
from common.database import any_of, insert_rows
from ratings.models import Rating, RatingChange, RatingHistory
from ratings.rater import Point

CHUNK = 64
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
MICROSECOND = datetime.timedelta(microseconds=1)
PACKED = 1  # the first byte of a chunk's points: their format
POINT = np.dtype([("at", "<i8"), ("game", "<i8"), ("elo", "<f8"), ("mu", "<f8"), ("sigma", "<f8")])
FIELDS = ("player", "game_type", "chunk", "last_at", "last_game", "points")

# A point: (microseconds since 1970, game id, Elo, mu, sigma)
HistoryPoint = tuple[int, int, float, float, float]


def microseconds(moment: datetime.datetime) -> int:
    return (moment - EPOCH) // MICROSECOND


def moment_of(us: int) -> datetime.datetime:
    return EPOCH + datetime.timedelta(microseconds=us)


# Packing ----------------------------------------------------------------------------------


def words_of(points: list[HistoryPoint]) -> np.ndarray:
    """Points as unpack gives them: a (5, n) array of 64-bit words."""
    if not points:
        return np.zeros((5, 0), np.uint64)
    return np.array(points, dtype=POINT).view(np.uint64).reshape(-1, 5).T


def pack(points: list[HistoryPoint] | np.ndarray) -> bytes:
    """A full chunk's points (or their words) as bytes: the PACKED byte, then squeezed."""
    words = points if isinstance(points, np.ndarray) else words_of(points)
    return bytes([PACKED]) + squeezed(words)


def squeezed(words: np.ndarray) -> bytes:
    """Points' words as bytes: each column as 64-bit words told from the previous point's
    (the moments and game ids by their difference, zigzagged; the floats by the bits that
    changed, XOR), the words' bytes gathered by place (all the first bytes, then the
    second...) and zlib-compressed. Exact: unpack gives the same numbers back. Some 27
    bytes a point of a player's history (40 as they are): the floats' low bits are noise."""
    if not words.shape[1]:
        return b""
    whole = words[:2].view(np.int64)
    steps = np.diff(whole, axis=1, prepend=0)
    zigzag = (steps << 1) ^ (steps >> 63)
    floats = words[2:]
    changed = floats ^ np.concatenate([np.zeros((3, 1), np.uint64), floats[:, :-1]], axis=1)
    both = np.concatenate([zigzag.view(np.uint64), changed])  # (5, n)
    planes = np.ascontiguousarray(both, "<u8").view(np.uint8).reshape(5, -1, 8).transpose(0, 2, 1)
    return zlib.compress(planes.tobytes(), 6)


def unpack(packed: bytes) -> np.ndarray:
    """pack's points as a (5, n) array of 64-bit words: moments and game ids (int64 view)
    and Elo, mu, sigma (float64 view), in the order packed."""
    if packed[0] != PACKED:
        raise ValueError(f"unknown rating history format {packed[0]}")
    if len(packed) == 1:
        return np.zeros((5, 0), np.uint64)
    planes = np.frombuffer(zlib.decompress(packed[1:]), np.uint8).reshape(5, 8, -1)
    words = planes.transpose(0, 2, 1).copy().view("<u8")[:, :, 0].astype(np.uint64)
    whole = words[:2].view(np.int64)
    steps = (whole >> 1) ^ -(whole & 1)
    words[:2] = np.cumsum(steps, axis=1).view(np.uint64)
    words[2:] = np.bitwise_xor.accumulate(words[2:], axis=1)
    return words


def unpack_all(chunks: list[bytes]) -> np.ndarray:
    """The points of these chunks (pack's, in order) one after the other, as unpack gives
    them: each chunk's bytes decompressed, then all undone at once (the differences and
    XORs summed over all and less the sum before each chunk; a player's page has dozens)."""
    if len(chunks) == 1:
        return unpack(chunks[0])
    planes = [
        np.frombuffer(zlib.decompress(chunk[1:]), np.uint8).reshape(5, 8, -1) for chunk in chunks
    ]
    sizes = [part.shape[2] for part in planes]
    both = np.concatenate(planes, axis=2).transpose(0, 2, 1).copy()
    words = both.view("<u8")[:, :, 0].astype(np.uint64)
    ends = np.cumsum(sizes)[:-1] - 1  # each chunk's last point but the last chunk's
    whole = words[:2].view(np.int64)
    summed = np.cumsum((whole >> 1) ^ -(whole & 1), axis=1)
    before = np.zeros((2, len(sizes)), np.int64)
    before[:, 1:] = summed[:, ends]
    words[:2] = (summed - np.repeat(before, sizes, axis=1)).view(np.uint64)
    xors = np.bitwise_xor.accumulate(words[2:], axis=1)
    before = np.zeros((3, len(sizes)), np.uint64)
    before[:, 1:] = xors[:, ends]
    words[2:] = xors ^ np.repeat(before, sizes, axis=1)
    return words


def columns(words: np.ndarray) -> tuple[np.ndarray, ...]:
    """unpack's words as (moments, game ids, Elo, mu, sigma) arrays."""
    whole = words[:2].view(np.int64)
    floats = words[2:].view(np.float64)
    return whole[0], whole[1], floats[0], floats[1], floats[2]


def points_of(words: np.ndarray) -> list[HistoryPoint]:
    moments, games, elos, mus, sigmas = columns(words)
    return list(
        zip(
            moments.tolist(), games.tolist(), elos.tolist(), mus.tolist(), sigmas.tolist(),
            strict=True,
        )
    )  # fmt: skip


# Reading ------------------------------------------------------------------------------------


def after(last: tuple[datetime.datetime, int]) -> Q:
    """The rating changes after this (played_at, game id) in the rating order."""
    moment, game_id = last
    # the range on its own first, so that the per-player index serves
    return Q(played_at__gte=moment) & (
        Q(played_at__gt=moment) | Q(played_at=moment, game_id__gt=game_id)
    )


def history_of(player_id: int) -> dict[str, tuple[np.ndarray, ...]]:
    """Each game type's points of a player (columns), in the rating order: their chunks
    (one index range) and the fewer than CHUNK rating changes after each type's last
    (a range of the per-player index a type). One statement on PostgreSQL (HISTORY_SQL:
    at 1M games a query's round trip and compiling cost more than its reading), three
    elsewhere (history_rows_here)."""
    return history_from(read_one(history_reading(player_id)))


HISTORY_KEY = "rating history"


def history_reading(player_id: int) -> Statement:
    """history_of's reading, to be read with others in one round trip (common.compiled.read;
    the player's page's): its rows for history_from."""
    return Statement(
        HISTORY_KEY,
        RatingHistory,
        HISTORY_SQL,
        ("player_id",) * HISTORY_SQL.count("%s"),
        ("game_type", "points", "at", "game", "elo", "mu", "sigma"),
        {"player_id": player_id},
        history_rows_here,
    )


def digest_of(rows: list[tuple]) -> str:
    """A digest of history_reading's rows, each value of each row in it (chunks' bytes as
    they are, numbers by their exact repr): rows that differ in anything differ in it.
    SHA-256: with the CPU's SHA instructions, some 2.6 times as fast as BLAKE2b here (0.11
    against 0.30 ms on 200 KB), read on every visit to a player's page."""
    digest = hashlib.sha256()
    for game_type, points, *point in rows:
        value = bytes(points) if points is not None else repr(point).encode()
        digest.update(f"{game_type}:{len(value)}:".encode())
        digest.update(value)
    return digest.hexdigest()


def history_from(rows: list[tuple]) -> dict[str, tuple[np.ndarray, ...]]:
    """history_of from its rows (HISTORY_SQL's, or history_rows_here's)."""
    parts: dict[str, list[bytes]] = {}
    later: dict[str, list[HistoryPoint]] = {}
    for game_type, points, *point in rows:
        if points is not None:
            parts.setdefault(game_type, []).append(bytes(points))
        else:
            later.setdefault(game_type, []).append(tuple(point))  # type: ignore[arg-type]
    return joined(parts, later)


def joined(
    chunks: dict[str, list[bytes]], later: dict[str, list[HistoryPoint]]
) -> dict[str, tuple[np.ndarray, ...]]:
    """Each type's columns: its chunks' points, then the points read after them."""
    parts = {game_type: [unpack_all(packed)] for game_type, packed in chunks.items()}
    for game_type, points in later.items():
        parts.setdefault(game_type, []).append(words_of(points))
    return {
        game_type: columns(np.concatenate(words, axis=1) if len(words) > 1 else words[0])
        for game_type, words in parts.items()
    }


# The player's chunks in order, then each type's rating changes after its last chunk (all of
# them for a type without chunks), as (type, points, microseconds, game, Elo, mu, sigma):
# the types are those of the player's ratings (the rater writes a rating with a player's
# first change of a type: one row the planner counts right, where a union with the chunks'
# types was counted as many as the chunks, and the statement's estimate then passed
# PostgreSQL's jit_above_cost: 35 ms compiling it at 1M games); a type's changes are one
# range of the per-player index (LATERAL: from the type's last chunk's last point).
HISTORY_SQL = f"""
WITH chunks AS MATERIALIZED (
  SELECT game_type, chunk, last_at, last_game, points FROM {RatingHistory._meta.db_table}
  WHERE player_id = %s
), types AS (
  SELECT game_type FROM {Rating._meta.db_table} WHERE player_id = %s
), last AS (
  SELECT DISTINCT ON (game_type) game_type, last_at, last_game FROM chunks
  ORDER BY game_type, chunk DESC
)
(SELECT game_type, points, NULL::bigint, NULL::bigint, NULL::float8, NULL::float8,
   NULL::float8
 FROM chunks ORDER BY game_type, chunk)
UNION ALL
(SELECT types.game_type, NULL, later.*
 FROM types LEFT JOIN last USING (game_type) CROSS JOIN LATERAL (
   SELECT (extract(epoch FROM played_at) * 1000000)::bigint, game_id, elo_after, mu_after,
     sigma_after
   FROM {RatingChange._meta.db_table} AS changes
   WHERE changes.player_id = %s AND changes.game_type = types.game_type
     AND changes.played_at >= coalesce(last.last_at, '-infinity')
     AND (last.last_at IS NULL OR changes.played_at > last.last_at
          OR changes.game_id > last.last_game)
   ORDER BY changes.played_at, changes.game_id
 ) AS later)
"""


def history_rows_here(player_id: int) -> list[tuple]:
    """HISTORY_SQL's rows in three queries of the ORM, for SQLite."""
    found: list[tuple] = []
    last: dict[str, tuple[datetime.datetime, int]] = {}
    rows = (
        RatingHistory.objects.filter(player_id=player_id)
        .order_by("game_type", "chunk")
        .values_list("game_type", "last_at", "last_game", "points")
    )
    for game_type, last_at, last_game, points in rows:
        found.append((game_type, bytes(points), None, None, None, None, None))
        last[game_type] = (last_at, last_game)
    types = set(Rating.objects.filter(player_id=player_id).values_list("game_type", flat=True))
    rest = Q(pk__in=[])
    for game_type in sorted(types):
        point = last.get(game_type)
        rest |= Q(game_type=game_type) & (after(point) if point else Q())
    for game_type, *point in (
        RatingChange.objects.filter(rest, player_id=player_id)
        .order_by("game_type", "played_at", "game_id")
        .values_list(*POINT_READ)
    ):
        found.append((game_type, None, *as_point(*point)))
    return found


POINT_READ = ("game_type", "played_at", "game_id", "elo_after", "mu_after", "sigma_after")


def as_point(
    played_at: datetime.datetime, game_id: int, elo: float, mu: float, sigma: float
) -> HistoryPoint:
    return (microseconds(played_at), game_id, elo, mu, sigma)


# Writing --------------------------------------------------------------------------------------


def crossed(counts: Mapping[int, tuple[int, int]]) -> list[int]:
    """The players whose count of rated games (before, after) passed a multiple of CHUNK:
    a chunk of theirs is complete."""
    return [player for player, (before, now) in counts.items() if now // CHUNK > before // CHUNK]


def cut(game_type: str, players: Collection[int], counts: Mapping[int, int] | None = None) -> int:
    """Pack the players' rating changes past their last chunk into chunks while CHUNK of
    them are left (of those whose count of rated games, in `counts`, says so; all when
    None). Returns the chunks written. One statement on PostgreSQL (TAILS_SQL), two
    elsewhere (tails_read_here), however many players."""
    if not players:
        return 0
    reading = tails_read_at_once if connection.vendor == "postgresql" else tails_read_here
    rows = []
    for player, (chunk, points) in reading(game_type, sorted(players), counts).items():
        for start in range(0, len(points) - CHUNK + 1, CHUNK):
            rows.append(chunk_row(player, game_type, chunk, points[start : start + CHUNK]))
            chunk += 1
    insert_rows(RatingHistory, FIELDS, rows)
    return len(rows)


# Tails: player -> (their next chunk's number, their points after their last chunk), of
# the players due a chunk (those `counts` says have CHUNK points past their last; all of
# them when None).
Tails = dict[int, tuple[int, list[HistoryPoint]]]


def tails_read_at_once(
    game_type: str, players: list[int], counts: Mapping[int, int] | None
) -> Tails:
    """The players' tails in one statement (TAILS_SQL): where the rater's ORM queries, one
    per player or one of a condition per player, cost it more to compile than to run
    (issue 25, the rater's cost per game)."""
    games = [None if counts is None else counts.get(player, CHUNK) for player in players]
    tails: Tails = {}
    with connection.cursor() as cursor:
        cursor.execute(
            TAILS_SQL, {"players": players, "counts": games, "type": game_type, "chunk": CHUNK}
        )
        for player, chunk, *point in cursor.fetchall():
            tails.setdefault(player, (chunk, []))[1].append(tuple(point))
    return tails


# Each player's last chunk (the primary key's range, backwards), then their rating changes
# after its last point (a range of the per-player index), as history points, of the players
# whose count of rated games (NULL: not known) leaves at least a chunk's worth after it.
TAILS_SQL = f"""
SELECT due.player_id, coalesce(last.chunk, -1) + 1,
  (extract(epoch FROM later.played_at) * 1000000)::bigint, later.game_id, later.elo_after,
  later.mu_after, later.sigma_after
FROM unnest(%(players)s::bigint[], %(counts)s::bigint[]) AS due(player_id, games)
LEFT JOIN LATERAL (
  SELECT chunk, last_at, last_game FROM {RatingHistory._meta.db_table} AS chunks
  WHERE chunks.player_id = due.player_id AND chunks.game_type = %(type)s
  ORDER BY chunk DESC LIMIT 1
) AS last ON true
CROSS JOIN LATERAL (
  SELECT played_at, game_id, elo_after, mu_after, sigma_after
  FROM {RatingChange._meta.db_table} AS changes
  WHERE changes.player_id = due.player_id AND changes.game_type = %(type)s
    AND changes.played_at >= coalesce(last.last_at, '-infinity')
    AND (last.last_at IS NULL OR changes.played_at > last.last_at
         OR changes.game_id > last.last_game)
) AS later
WHERE due.games IS NULL OR due.games - (coalesce(last.chunk, -1) + 1) * %(chunk)s >= %(chunk)s
ORDER BY due.player_id, later.played_at, later.game_id
"""


def tails_read_here(game_type: str, players: list[int], counts: Mapping[int, int] | None) -> Tails:
    """tails_read_at_once by the ORM, for SQLite: the players' last chunks, then their
    changes after them."""
    last: dict[int, tuple[int, tuple]] = {}
    for player, chunk, last_at, last_game in RatingHistory.objects.filter(
        any_of("player_id", players), game_type=game_type
    ).values_list("player_id", "chunk", "last_at", "last_game"):
        if chunk >= last.get(player, (-1, None))[0]:
            last[player] = (chunk, (last_at, last_game))
    due: dict[int, tuple[int, tuple | None]] = {}
    for player in players:
        chunk, point = last.get(player, (-1, None))
        chunk += 1
        if counts is None or counts.get(player, CHUNK) - chunk * CHUNK >= CHUNK:
            due[player] = (chunk, point)
    if not due:
        return {}
    later = functools.reduce(
        operator.or_,
        (
            Q(player_id=player) & (after(point) if point else Q())
            for player, (_, point) in due.items()
        ),
    )
    tails: Tails = {player: (chunk, []) for player, (chunk, _) in due.items()}
    for player, *row in (
        RatingChange.objects.filter(later, game_type=game_type)
        .order_by("player_id", "played_at", "game_id")
        .values_list("player_id", *POINT_READ[1:])
    ):
        tails[player][1].append(as_point(*row))
    return tails


def chunk_row(player: int, game_type: str, chunk: int, points: list[HistoryPoint]) -> tuple:
    last = points[-1]
    return (player, game_type, chunk, moment_of(last[0]), last[1], pack(points))


def cut_from(game_type: str, since: Point, counts: Mapping[int, int]) -> None:
    """The players' (`counts`: their count of rated games now) rating changes from `since`
    on in the rating order were redone (a catch-up): their chunks from the one holding
    `since` on go, and are cut again from the changes."""
    players = list(counts)
    if not players:
        return
    RatingHistory.objects.filter(any_of("player_id", players), game_type=game_type).filter(
        Q(last_at__gt=since[0]) | Q(last_at=since[0], last_game__gte=since[1])
    ).delete()
    cut(game_type, players, counts)


REBUILD_ROWS = 2_000  # chunk rows written at a time by a rebuild


def rebuild(game_type: str | None = None) -> int:
    """Every player's chunks of a game type (of all types when None) cut again from the
    rating changes; returns the chunks written. Reads the changes in one pass in the
    rating order of each player (the per-player index), writes the chunks as they fill."""
    histories = RatingHistory.objects.all()
    changes = RatingChange.objects.all()
    if game_type is not None:
        histories = histories.filter(game_type=game_type)
        changes = changes.filter(game_type=game_type)
    histories.delete()
    rows: list[tuple] = []
    written = 0
    key = None
    points: list[HistoryPoint] = []
    chunk = 0
    stream = changes.order_by("player_id", "game_type", "played_at", "game_id").values_list(
        "player_id", *POINT_READ
    )
    for player, kind, *point in stream.iterator(chunk_size=20_000):
        if (player, kind) != key:
            key, points, chunk = (player, kind), [], 0
        points.append(as_point(*point))
        if len(points) == CHUNK:
            rows.append(chunk_row(player, kind, chunk, points))
            points, chunk = [], chunk + 1
            if len(rows) >= REBUILD_ROWS:
                insert_rows(RatingHistory, FIELDS, rows)
                written, rows = written + len(rows), []
    insert_rows(RatingHistory, FIELDS, rows)
    return written + len(rows)
