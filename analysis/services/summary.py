"""What pages show of analyses: the latest one of a log, and a player's costs by phase."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from analysis.models import Analysis
from engines.analysis import engine_version


def latest_analysis(log_id: int) -> Analysis | None:
    """The newest analysis of a log: a current one if any, else the newest stale one."""
    analyses = list(Analysis.objects.filter(log_id=log_id).order_by("-created")[:20])
    current = [a for a in analyses if not a.is_stale and a.status != Analysis.Status.FAILED]
    return (current or analyses or [None])[0]


def describe(action: dict[str, Any]) -> str:
    details = ", ".join(f"{k} {v}" for k, v in action.items() if k not in ("type", "seat"))
    return f"{action['type']} ({details})" if details else action["type"]


def player_costs(player) -> list[dict[str, Any]]:
    """Average cost per decision of a player's seats over analysed games, by game and phase.

    Only done, current analyses count (one per log: the newest). Analyses are few and a
    player's games many: the analyses of the player's logs are read first, then the seats of
    those logs only."""
    analyses = list(
        Analysis.objects.filter(
            log__game__seats__player=player, status=Analysis.Status.DONE, stale=False
        ).order_by("-created")  # a player seated twice finds an analysis twice: seen_logs
    )
    if not analyses:
        return []
    seats = {
        (log_id, seat): game_type
        for log_id, seat, game_type in player.seats.filter(
            game__log_id__in={analysis.log_id for analysis in analyses}
        )
        .order_by()
        .values_list("game__log_id", "seat", "game__game_type")
    }
    totals: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    seen_logs = set()
    for analysis in analyses:
        if analysis.log_id in seen_logs or analysis.engine_version != engine_version(
            analysis.game_type
        ):
            continue
        seen_logs.add(analysis.log_id)
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
