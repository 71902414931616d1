"""Each player's rating history, packed (issue 25): what their page's chart reads.

A player's rating changes lie scattered over the whole of `ratings_ratingchange` (a row is
written when its game is rated): the busiest player's 4,229 at 1M games sit on some 3,600 of
its pages, and reading them was most of their page's time. Their history is kept here as
well, as lichess keeps a user's: a few rows a player and game type (RatingHistory), each of
up to CHUNK points packed (pack), read by one index.

Derived data, kept equal to RatingChange by the one who writes it, the rater
(ratings.services), holding the game type's ledger lock: `append` for games later than
everything their players were rated for, `rewrite_from` for a catch-up that redid the games
from a point on, `rebuild` for a whole game type (a recompute, a merge) and for a database
that had none (the migration). A point is (microseconds since 1970, game id, Elo, mu,
sigma), in the rating order (played_at, game id); the chunks of a player and type are full
(CHUNK points, numbered from 0) but the last, TAIL, which holds the rest (possibly none).
"""

from __future__ import annotations

import datetime
import struct
import zlib
from collections.abc import Collection, Iterable, Mapping
from typing import Any

import numpy as np

from common.database import any_of, insert_rows, upsert_rows
from ratings.models import RatingChange, RatingHistory
from ratings.rater import Change, Point

CHUNK = 64
TAIL = RatingHistory.TAIL
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
MICROSECOND = datetime.timedelta(microseconds=1)
PACKED, TAILED = 1, 2  # the first byte of a chunk's points, a full one's or a tail's
RAW_POINTS = 16  # points added to a tail as they are before it is packed again (tail)
POINT = np.dtype([("at", "<i8"), ("game", "<i8"), ("elo", "<f8"), ("mu", "<f8"), ("sigma", "<f8")])
FIELDS = ("player", "game_type", "chunk", "start", "last_at", "last_game", "points")

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


def tail(points: list[HistoryPoint] | np.ndarray, added: list[HistoryPoint] = ()) -> bytes:
    """A tail's points as bytes: the TAILED byte, the length of the squeezed points (2
    bytes), them, then the points `added` as they are (POINT): a game rated lengthens a tail
    by its point, with no packing again until RAW_POINTS are so added (the rater's cost)."""
    words = points if isinstance(points, np.ndarray) else words_of(points)
    packed = squeezed(words)
    return bytes([TAILED]) + struct.pack("<H", len(packed)) + packed + raw(added)


def raw(points: Iterable[HistoryPoint]) -> bytes:
    return np.array(list(points), dtype=POINT).tobytes()


def raw_points(tail: bytes) -> int:
    """The points added as they are to a tail (tail's bytes)."""
    (packed,) = struct.unpack_from("<H", tail, 1)
    return (len(tail) - 3 - packed) // POINT.itemsize


def unpack(packed: bytes) -> np.ndarray:
    """pack's points as a (5, n) array of 64-bit words: moments and game ids (int64 view)
    and Elo, mu, sigma (float64 view), in the order packed."""
    if packed[0] == TAILED:
        (length,) = struct.unpack_from("<H", packed, 1)
        added = np.frombuffer(packed, "<u8", offset=3 + length).reshape(-1, 5).T
        squeezed = unpack(bytes([PACKED]) + packed[3 : 3 + length])
        return np.concatenate([squeezed, added.astype(np.uint64)], axis=1)
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


def history_of(player_id: int) -> dict[str, tuple[np.ndarray, ...]]:
    """Each game type's points of a player (columns), in the rating order; the types in the
    order of their name. One query, one index range."""
    chunks: dict[str, list[np.ndarray]] = {}
    rows = (
        RatingHistory.objects.filter(player_id=player_id)
        .order_by("game_type", "chunk")
        .values_list("game_type", "points")
    )
    for game_type, points in rows:
        chunks.setdefault(game_type, []).append(unpack(bytes(points)))
    return {
        game_type: columns(np.concatenate(parts, axis=1) if len(parts) > 1 else parts[0])
        for game_type, parts in chunks.items()
        if sum(part.shape[1] for part in parts)
    }


# Writing --------------------------------------------------------------------------------------


def change_points(changes: Iterable[Change]) -> dict[int, list[HistoryPoint]]:
    """Each player's points of these changes (given in the rating order)."""
    points: dict[int, list[HistoryPoint]] = {}
    for change in changes:
        record = change.game
        points.setdefault(change.player_id, []).append(
            (
                microseconds(record.played_at),
                record.game_id,
                change.elo_after,
                change.mu_after,
                change.sigma_after,
            )
        )
    return points


def rows_from(player: int, game_type: str, start: int, points: list[HistoryPoint]) -> list:
    """The chunk rows (FIELDS) of a player's points from point `start` on (a multiple of
    CHUNK): full chunks, then the tail of the 1 to CHUNK points left (none without points)."""
    rows = []
    while len(points) > CHUNK:
        part, points = points[:CHUNK], points[CHUNK:]
        rows.append(chunk_row(player, game_type, start // CHUNK, start, part))
        start += CHUNK
    if points:
        rows.append(chunk_row(player, game_type, TAIL, start, points))
    return rows


def chunk_row(player: int, game_type: str, chunk: int, start: int, points: list) -> tuple:
    last = points[-1]
    written = tail(points) if chunk == TAIL else pack(points)
    return (player, game_type, chunk, start, moment_of(last[0]), last[1], written)


def append(game_type: str, points: Mapping[int, list[HistoryPoint]]) -> None:
    """Points later than every one stored of their players: added to the players' tails
    as they are (tail), the tail packed again once it has RAW_POINTS so added, and cut in
    full chunks once it has more than CHUNK points. One query reads the tails, one writes."""
    if not points:
        return
    tails = RatingHistory.objects.filter(
        any_of("player_id", list(points)), game_type=game_type, chunk=TAIL
    )
    held = {
        player: (start, bytes(written))
        for player, start, written in tails.values_list("player_id", "start", "points")
    }
    rows = []
    for player in sorted(points):
        new = points[player]
        last = new[-1]
        start, written = held.get(player, (0, None))
        if written is not None and raw_points(written) + len(new) <= RAW_POINTS:
            written += raw(new)
        else:
            words = words_of(new)
            if written is not None:
                words = np.concatenate([unpack(written), words], axis=1)
            while words.shape[1] > CHUNK:
                part, words = words[:, :CHUNK], words[:, CHUNK:]
                rows.append(
                    (player, game_type, start // CHUNK, start, *chunk_end(part), pack(part))
                )
                start += CHUNK
            written = tail(words)
        rows.append((player, game_type, TAIL, start, moment_of(last[0]), last[1], written))
    # the tails in place, the chunks they filled added: one statement
    upsert_rows(
        RatingHistory,
        FIELDS,
        rows,
        unique=("player", "game_type", "chunk"),
        update=("start", "last_at", "last_game", "points"),
    )


def chunk_end(words: np.ndarray) -> tuple[datetime.datetime, int]:
    """The moment and game id of the last point of these words."""
    moments, games = words[:2, -1].view(np.int64).tolist()
    return moment_of(moments), games


def rewrite_from(
    game_type: str, since: Point, players: Collection[int], points: Mapping[int, list]
) -> None:
    """The players' points from `since` on in the rating order were redone (a catch-up):
    their chunks from the one holding `since` on are written again with `points` (each
    player's new points from `since` on; none for a player who has none now)."""
    moment, game_id = since
    since_key = (microseconds(moment), game_id)
    players = sorted(set(players) | set(points))
    if not players:
        return
    from_since = RatingHistory.objects.filter(
        any_of("player_id", players), game_type=game_type
    ).filter(_at_or_after(since) | _tail())
    held: dict[int, tuple] = {}
    for player, chunk, start, packed in from_since.values_list(
        "player_id", "chunk", "start", "points"
    ).order_by("player_id", "chunk"):
        if player not in held:  # the first chunk from `since` on: its points before it stay
            held[player] = (start, chunk, packed)
    from_since.delete()
    rows = []
    for player in players:
        new = points.get(player, [])
        if player in held:
            start, _, packed = held[player]
            before = [p for p in points_of(unpack(bytes(packed))) if (p[0], p[1]) < since_key]
        else:
            start, before = 0, []
        if not before and not new and start:
            # every point from `start` on is gone: the last full chunk becomes the tail
            start -= CHUNK
            previous = RatingHistory.objects.filter(
                player_id=player, game_type=game_type, chunk=start // CHUNK
            )
            before = points_of(unpack(bytes(previous.values_list("points", flat=True).get())))
            previous.delete()
        rows += rows_from(player, game_type, start, before + new)
    insert_rows(RatingHistory, FIELDS, rows)


def _at_or_after(since: Point) -> Any:
    from django.db.models import Q

    moment, game_id = since
    return Q(last_at__gt=moment) | Q(last_at=moment, last_game__gte=game_id)


def _tail() -> Any:
    from django.db.models import Q

    return Q(chunk=TAIL)


REBUILD_ROWS = 2_000  # chunk rows written at a time by a rebuild


def rebuild(game_type: str | None = None) -> int:
    """Every player's history of a game type (of all types when None) built again from the
    rating changes; returns the points written. Reads the changes in one pass in the
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
    start = 0

    def flush(final: bool = False) -> None:
        nonlocal rows
        if rows and (final or len(rows) >= REBUILD_ROWS):
            insert_rows(RatingHistory, FIELDS, rows)
            rows = []

    stream = changes.order_by("player_id", "game_type", "played_at", "game_id").values_list(
        "player_id", "game_type", "played_at", "game_id", "elo_after", "mu_after", "sigma_after"
    )
    for player, kind, played_at, game_id, elo, mu, sigma in stream.iterator(chunk_size=20_000):
        if (player, kind) != key:
            if key is not None:
                rows += rows_from(*key, start, points)
                flush()
            key, points, start = (player, kind), [], 0
        points.append((microseconds(played_at), game_id, elo, mu, sigma))
        written += 1
        if len(points) > CHUNK:
            rows.append(chunk_row(player, kind, start // CHUNK, start, points[:CHUNK]))
            points, start = points[CHUNK:], start + CHUNK
    if key is not None:
        rows += rows_from(*key, start, points)
    flush(final=True)
    return written
