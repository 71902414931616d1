"""What pages show of analyses: the latest one of a log, a player's costs by phase and
their accuracy game by game."""

from __future__ import annotations

import datetime
from collections import defaultdict
from typing import Any, NamedTuple

from django.db import router
from django.db.models import QuerySet

from analysis.models import Analysis
from common.compiled import Reading, read_one
from engines.review import accuracy


class Current(NamedTuple):
    """What current_analyses gives: the player's page reads it once for both summaries below."""

    analyses: list[Analysis]  # the newest done, current analysis of each game, newest first
    seats: dict[tuple[int, int], str]  # the player's seats in those games: (log, seat) -> type
    played: dict[int, datetime.datetime | None]  # when each analysis' game was played, by pk


# What the page reads of an analysis (the rest deferred): is_stale's fields and the decisions.
ANALYSIS_READ = ("id", "log_id", "game_type", "engine_version", "stale", "decisions")
# The placeholder the query is compiled with (common.compiled): a player no request names.
PLAYER_SLOT = 32_123


def latest_analysis(log_id: int) -> Analysis | None:
    """The newest analysis of a log: a current one if any, else the newest stale one."""
    analyses = list(Analysis.objects.filter(log_id=log_id).order_by("-created")[:20])
    current = [a for a in analyses if not a.is_stale and a.status != Analysis.Status.FAILED]
    return (current or analyses or [None])[0]


def seated_analyses(player: int) -> QuerySet:
    """The done, unretracted analyses of the logs whose game seats the player, newest first,
    a row per seat of the player there: ANALYSIS_READ, then the seat, the game's type and
    when it was played (one join of analyses, logs, games and the player's seats)."""
    return (
        Analysis.objects.filter(
            log__game__seats__player_id=player, status=Analysis.Status.DONE, stale=False
        )
        .order_by("-created", "-id")
        .values_list(
            *ANALYSIS_READ,
            "log__game__seats__seat",
            "log__game__game_type",
            "log__game__played_at",
        )
    )


# The key of seated_analyses compiled (common.compiled), and of its rows read with the player
# page's other queries (pages.services.profiles.page_rows).
SEATED_ANALYSES = "player's seated analyses"


def seated_analyses_reading(player: int) -> Reading:
    """seated_analyses(player) as a reading (common.compiled): compiled once on PostgreSQL,
    and read with the player page's other queries in its one round trip (issue 25)."""
    return Reading(
        SEATED_ANALYSES, Analysis, seated_analyses, {"player": PLAYER_SLOT}, {"player": player}
    )


def current_analyses(player, rows: list[tuple] | None = None) -> Current:
    """The newest done, current analysis of each analysed game of the player, newest first,
    the player's seats in those games ((log, seat) -> game type) and when each was played:
    from seated_analyses' `rows` if they were read already (the player page's round trip),
    else read here (seated_analyses_reading).

    One query, compiled once on PostgreSQL (common.compiled): the page built three querysets
    a request for these, some 1.5 ms (issue 25)."""
    alias = router.db_for_read(Analysis)
    if rows is None:
        rows = read_one(seated_analyses_reading(player.pk))
    width = len(ANALYSIS_READ)
    current = Current([], {}, {})
    chosen: dict[int, int] = {}  # log -> the analysis kept for it
    for row in rows:
        pk, log_id = row[0], row[1]
        seat, game_type, played = row[width:]
        kept = chosen.get(log_id)
        if kept is None:
            analysis = Analysis.from_db(alias, ANALYSIS_READ, row[:width])
            if analysis.is_stale:  # of another engine version: an older one may be current
                continue
            chosen[log_id] = pk
            current.analyses.append(analysis)
            current.played[pk] = played
        elif kept != pk:  # an older analysis of a game kept already
            continue
        current.seats[(log_id, seat)] = game_type
    return current


def player_accuracy(player, current: Current | None = None) -> list[dict[str, Any]]:
    """The player's accuracy (engines.review.accuracy) in each analysed game, by the date the
    game was played, newest first (`current`: current_analyses(player), if read already)."""
    analyses, seats, played = current if current is not None else current_analyses(player)
    games = []
    for analysis in analyses:
        for (log_id, seat), game_type in seats.items():
            if log_id != analysis.log_id:
                continue
            score = accuracy(analysis.decisions, seat)
            if score is not None:
                games.append(
                    {
                        "log": log_id,
                        "game": game_type,
                        "played": played[analysis.pk],
                        "accuracy": score,
                        "decisions": sum(d["seat"] == seat for d in analysis.decisions),
                    }
                )
    return sorted(
        games, key=lambda g: g["played"].timestamp() if g["played"] else 0.0, reverse=True
    )


def player_costs(player, current: Current | None = None) -> list[dict[str, Any]]:
    """Average cost per decision of a player's seats over analysed games, by game and phase
    (`current`: current_analyses(player), if read already).

    Only done, current analyses count (one per log: the newest)."""
    analyses, seats, _ = current if current is not None else current_analyses(player)
    totals: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for analysis in analyses:
        for decision in analysis.decisions:
            if (analysis.log_id, decision["seat"]) not in seats:
                continue
            row = totals[(analysis.game_type, decision["phase"])]
            row[0] += 1
            row[1] += decision["cost"]
            row[2] += decision["cost"] > 0.0
    return [
        {
            "game": game,
            "phase": phase,
            "decisions": int(n),
            "average_cost": total / n,
            "costly_share": costly / n,
        }
        for (game, phase), (n, total, costly) in sorted(totals.items())
    ]
