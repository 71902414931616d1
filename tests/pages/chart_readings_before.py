"""The rating chart's readings as they were before the packed histories (issue 25), kept
to pin that the packed history's give the same points: PICTURE_SQL and HISTORY_SQL read the
rating changes on PostgreSQL, their twins picture_read_here and history_read_here elsewhere
(pages.services.profiles before ratings.history)."""

import math
from typing import Any

import numpy as np
import orjson
from django.db import connection

from pages.services import profiles
from players.models import Player
from ratings.models import RatingChange
from ratings.skill import ordinal


def line_columns(line: list[tuple[float, ...]]) -> tuple[list[np.ndarray], float, float]:
    """A line's points (seconds, Elo, mu, sigma) as profiles.slices_of takes them: its
    columns, its first moment and the seconds it spans (1 for a line at one moment)."""
    start = min(seconds for seconds, *_ in line)
    span = (max(seconds for seconds, *_ in line) - start) or 1.0
    return [np.array(column) for column in zip(*line, strict=True)], start, span


def slices_listed(points: profiles.SlicePoints) -> list[list[list[float]]]:
    """A line's slices' points (profiles.slices_of) as PICTURE_SQL gave them: a list a
    slice of its six points' lists."""
    return [list(slice_) for slice_ in zip(*(pick.tolist() for pick in points), strict=True)]


def picture_types_listed(types: list[list[Any]]) -> list[list[Any]]:
    """profiles.picture_types' rows with each line's slices listed (slices_listed)."""
    return [[*row[:4], None if row[4] is None else slices_listed(row[4])] for row in types]


def picture_rows(player: Player) -> list[list[Any]]:
    """picture_lines' rows as they were read before."""
    if connection.vendor != "postgresql":
        return picture_read_here(player)
    with connection.cursor() as cursor:
        cursor.execute(
            PICTURE_SQL,
            {
                "player": player.pk,
                "whole": 2 * profiles.PREVIEW_COLUMNS,
                "columns": profiles.PREVIEW_COLUMNS,
            },
        )
        return orjson.loads(cursor.fetchone()[0] or "[]")


def history_rows(player: Player) -> list[tuple[Any, ...]]:
    """rating_history_data's columns as they were read before."""
    if connection.vendor != "postgresql":
        return history_read_here(player)
    with connection.cursor() as cursor:
        cursor.execute(HISTORY_SQL, [player.pk])
        return [
            (game_type, first, last, *orjson.loads(arrays))
            for game_type, first, last, arrays, _ in cursor.fetchall()
        ]


HISTORY_SQL = f"""
SELECT game_type, min(played_at) AS first, max(played_at),
  json_build_array(
    array_agg(date_part('epoch', played_at) * 1000), array_agg(elo_after),
    array_agg(mu_after), array_agg(sigma_after)
  )::text,
  min(game_id) AS first_game
FROM (
  SELECT * FROM {RatingChange._meta.db_table} WHERE player_id = %s
  ORDER BY game_type, played_at, game_id
) AS changes
GROUP BY game_type
ORDER BY first, first_game
"""


def history_read_here(player: Player) -> list[tuple[Any, ...]]:
    """HISTORY_SQL's rows worked out here, for a database without its arrays (SQLite)."""
    columns: dict[str, list[Any]] = {}
    least: dict[str, int] = {}
    rows = RatingChange.objects.filter(player=player).order_by("played_at", "game_id")
    fields = ("game_type", "game_id", "played_at", "elo_after", "mu_after", "sigma_after")
    for game_type, game_id, played, *values in rows.values_list(*fields):
        column = columns.setdefault(game_type, [game_type, played, played, [], [], [], []])
        column[2] = played
        least[game_type] = min(least.get(game_type, game_id), game_id)
        for kept, value in zip(column[3:], [played.timestamp() * 1000, *values], strict=True):
            kept.append(value)
    return sorted(
        (tuple(column) for column in columns.values()),
        key=lambda column: (column[1], least[column[0]]),
    )


PICTURE_SQL = f"""
WITH changes AS MATERIALIZED (
  SELECT game_type, game_id, date_part('epoch', played_at) AS s,
    elo_after AS elo, mu_after AS mu, sigma_after AS sigma
  FROM {RatingChange._meta.db_table} WHERE player_id = %(player)s
), spans AS (
  SELECT game_type, count(*) AS n, min(s) AS first, max(s) AS last, min(game_id) AS first_game
  FROM changes GROUP BY game_type
), chart AS (
  SELECT min(first) AS start, coalesce(nullif(max(last) - min(first), 0), 1) AS span
  FROM spans
), whole AS (
  SELECT game_type,
    json_build_array(array_agg(s), array_agg(elo), array_agg(mu), array_agg(sigma)) AS points
  FROM (
    SELECT changes.* FROM changes JOIN spans USING (game_type) WHERE n <= %(whole)s
    ORDER BY game_type, s, game_id
  ) AS ordered
  GROUP BY game_type
), slices AS (
  SELECT game_type,
    json_agg(json_build_array(low, high, skill_low, skill_high, first, last) ORDER BY slice)
      AS points
  FROM (
    SELECT game_type, slice,
      min(ARRAY[elo, s]) AS low, max(ARRAY[elo, -s]) AS high,
      min(ARRAY[mu - 3 * sigma, s, mu, sigma]) AS skill_low,
      max(ARRAY[mu - 3 * sigma, -s, mu, sigma]) AS skill_high,
      min(ARRAY[s, elo, mu, sigma]) AS first, max(ARRAY[s, elo, mu, sigma]) AS last
    FROM (
      SELECT changes.*,
        least(floor((s - start) / span * %(columns)s), %(columns)s - 1) AS slice
      FROM changes JOIN spans USING (game_type) CROSS JOIN chart WHERE n > %(whole)s
    ) AS sliced
    GROUP BY game_type, slice
  ) AS per_slice
  GROUP BY game_type
)
SELECT json_agg(
  json_build_array(game_type, first, last, whole.points, slices.points)
  ORDER BY first, first_game
)::text
FROM spans LEFT JOIN whole USING (game_type) LEFT JOIN slices USING (game_type)
"""


def picture_read_here(player: Player) -> list[list[Any]]:
    """PICTURE_SQL's rows worked out here, for a database without its arrays (SQLite)."""
    games: dict[str, list[tuple[Any, ...]]] = {}
    rows = RatingChange.objects.filter(player=player).order_by("played_at", "game_id")
    fields = ("game_type", "game_id", "played_at", "elo_after", "mu_after", "sigma_after")
    for game_type, game_id, played, elo, mu, sigma in rows.values_list(*fields):
        games.setdefault(game_type, []).append((played.timestamp(), elo, mu, sigma, game_id))
    if not games:
        return []
    start = min(of_type[0][0] for of_type in games.values())
    span = (max(of_type[-1][0] for of_type in games.values()) - start) or 1.0
    types = []
    for game_type, of_type in games.items():
        first_game = min(game[4] for game in of_type)
        row = [game_type, of_type[0][0], of_type[-1][0], None, None]
        if len(of_type) <= 2 * profiles.PREVIEW_COLUMNS:
            row[3] = [list(column) for column in list(zip(*of_type, strict=True))[:4]]
        else:
            found: dict[int, list[list[float]]] = {}
            for s, elo, mu, sigma, _ in of_type:
                at = min(
                    math.floor((s - start) / span * profiles.PREVIEW_COLUMNS),
                    profiles.PREVIEW_COLUMNS - 1,
                )
                skill = ordinal((mu, sigma))
                point = [[elo, s], [elo, -s], [skill, s, mu, sigma], [skill, -s, mu, sigma]]
                point += [[s, elo, mu, sigma], [s, elo, mu, sigma]]
                kept = found.setdefault(at, point)
                for i, keep in enumerate((min, max, min, max, min, max)):
                    kept[i] = keep(kept[i], point[i])
            row[4] = [found[at] for at in sorted(found)]
        types.append((row[1], first_game, row))
    return [row for _, _, row in sorted(types, key=lambda kept: kept[:2])]
