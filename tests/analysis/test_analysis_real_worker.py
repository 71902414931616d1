"""A game's analysis on the real stack: PostgreSQL, the chunks queued on Redis as a Celery
group and run by a real worker, progress counted as they go."""

import json
import time

import pytest

from analysis.models import Analysis
from analysis.services import jobs
from engines.analysis import Budget
from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import GameLog, Source
from games.services.intake import submit_batch

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TINY = Budget(target_se=0.2, min_playouts=4, max_playouts=8, batch=4)


def test_a_real_worker_runs_every_chunk_and_the_last_one_completes_the_analysis(
    postgresql, celery_worker, settings
):
    settings.ANALYSIS_CHUNK_DECISIONS = 4
    game = get_game("deep-dive")
    logs = simulate(game, game.ruleset(None), 3, 1, seed="real-worker-analysis")
    submit_batch((json.dumps(log).encode() for log in logs), user=None, source=Source.SIMULATED)
    deadline = time.monotonic() + 60
    while not GameLog.objects.filter(status=GameLog.Status.VERIFIED).exists():
        assert time.monotonic() < deadline, "the log was not verified within 60 s"
        time.sleep(0.2)
    log = GameLog.objects.get()

    analysis, created = jobs.request_analysis(log, budget=TINY)
    chunks = analysis.chunks.count()
    assert created and chunks > 1
    for _ in range(chunks):
        celery_worker.wait_for("analysis.tasks.analyse_chunk_task", timeout=120)
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE
    assert analysis.done == analysis.total == len(analysis.decisions) > 0
    assert [d["index"] for d in analysis.decisions] == sorted(
        i for chunk in analysis.chunks.all() for i in chunk.indices
    )
