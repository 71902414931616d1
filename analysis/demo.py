"""Demo analyses: a few games analysed at a small budget when the demo loads, so the replay's
evaluation graph, its move marks and the players' accuracy can be seen without a worker."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from django.utils import timezone

from analysis.models import Analysis, budget_key
from analysis.services.jobs import DEFAULT_SEED
from engines.analysis import Budget, analyse_log, engine_version
from engines.core.log import loads
from games.models import GameLog

# Six playouts an action: rough estimates (the page says the budget and the error), about
# 10 CPU s for a 4-player Deep Vents game instead of minutes at the site's default budget.
# Two playouts gave chances of only 0, 0.5 or 1, and blunders that were noise.
DEMO_BUDGET = Budget(target_se=0.5, min_playouts=6, max_playouts=6, batch=6, sure_playouts=6)


def load(logs: Iterable[GameLog], stdout: TextIO) -> None:
    """Analyse each verified log that has no analysis yet; running again adds nothing."""
    made = 0
    for log in logs:
        if log.status != GameLog.Status.VERIFIED or log.analyses.exists():
            continue
        decisions = analyse_log(loads(log.raw), budget=DEMO_BUDGET, seed=DEFAULT_SEED)
        Analysis.objects.create(
            log=log,
            game_type=log.game_type,
            engine_version=engine_version(log.game_type),
            budget=DEMO_BUDGET.to_json(),
            budget_key=budget_key(DEMO_BUDGET),
            seed=DEFAULT_SEED,
            status=Analysis.Status.DONE,
            total=len(decisions),
            done=len(decisions),
            decisions=[decision.to_json() for decision in decisions],
            finished=timezone.now(),
        )
        made += 1
    games = f"{made} game{'s' if made != 1 else ''}"
    stdout.write(
        f"Demo analyses: {games} analysed at {DEMO_BUDGET.max_playouts} playouts an action.\n"
    )
