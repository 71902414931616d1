"""What pages show of analyses: the latest one of a log, a player's costs by phase and
their accuracy game by game."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from analysis.models import Analysis
from engines.review import accuracy

# What current_analyses gives: the player's page reads it once for both summaries below.
Current = tuple[list[Analysis], dict[tuple[int, int], str]]


def latest_analysis(log_id: int) -> Analysis | None:
    """The newest analysis of a log: a current one if any, else the newest stale one."""
    analyses = list(Analysis.objects.filter(log_id=log_id).order_by("-created")[:20])
    current = [a for a in analyses if not a.is_stale and a.status != Analysis.Status.FAILED]
    return (current or analyses or [None])[0]


def current_analyses(player) -> Current:
    """The newest done, current analysis of each analysed game of the player, newest first,
    and the player's seats in those games ((log, seat) -> game type).

    Analyses are few and a player's games many: the analyses of the player's logs are read
    first, then the seats of those logs only."""
    analyses = Analysis.objects.filter(
        log__game__seats__player=player, status=Analysis.Status.DONE, stale=False
    ).order_by("-created")  # a player seated twice finds an analysis twice: seen_logs
    current, seen_logs = [], set()
    for analysis in analyses:
        if analysis.log_id in seen_logs or analysis.is_stale:
            continue
        seen_logs.add(analysis.log_id)
        current.append(analysis)
    seats = {
        (log_id, seat): game_type
        for log_id, seat, game_type in player.seats.filter(game__log_id__in=seen_logs)
        .order_by()
        .values_list("game__log_id", "seat", "game__game_type")
    }
    return current, seats


def player_accuracy(player, current: Current | None = None) -> list[dict[str, Any]]:
    """The player's accuracy (engines.review.accuracy) in each analysed game, by the date the
    game was played, newest first (`current`: current_analyses(player), if read already)."""
    analyses, seats = current if current is not None else current_analyses(player)
    played = dict(
        Analysis.objects.filter(pk__in=[a.pk for a in analyses]).values_list(
            "pk", "log__game__played_at"
        )
    )
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
    analyses, seats = current if current is not None else current_analyses(player)
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
