"""Analysis jobs: a game's decision points split into chunks, one Celery task per chunk.

`request_analysis` reuses a stored analysis of the same log, engine version, budget and
seed; otherwise it stores the decision points in chunks and queues them as a Celery group,
so every running worker takes a share. Each evaluated decision bumps `done` (live
progress); the chunk that finishes last merges the decisions and marks the analysis done.
"""

from __future__ import annotations

from typing import Any

from celery import group, shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from analysis.models import Analysis, AnalysisChunk, budget_key
from engines.analysis import Budget, analyse_log, decision_points, engine_version
from engines.core.log import loads
from engines.registry import title_of
from games.models import Game, GameLog
from games.names import game_name
from notices import services as notices
from notices.models import Kind

DEFAULT_SEED = "0"


class AnalysisRefused(Exception):
    """The log cannot be analysed (not verified); the message says why."""


def default_budget() -> Budget:
    return Budget.from_json(settings.ANALYSIS_BUDGET)


def interleaved(indices: list[int], chunks: int) -> list[list[int]]:
    """Chunk i takes every chunks-th decision from the i-th: early decisions (long
    playouts) and late ones (short) spread evenly over the workers."""
    return [indices[start::chunks] for start in range(chunks) if indices[start::chunks]]


def request_analysis(
    log: GameLog, budget: Budget | None = None, seed: str = DEFAULT_SEED
) -> tuple[Analysis, bool]:
    """The analysis of `log` at the current engine version and `budget`: the stored one if
    any (not stale, not failed), else a new one queued. Returns (analysis, created)."""
    if log.status != GameLog.Status.VERIFIED:
        raise AnalysisRefused(f"this log is {log.status}: only verified games are analysed")
    budget = budget or default_budget()
    version = engine_version(log.game_type)
    key = budget_key(budget)
    with transaction.atomic():
        analysis, created = Analysis.objects.select_for_update().get_or_create(
            log=log,
            engine_version=version,
            budget_key=key,
            seed=seed,
            defaults={"game_type": log.game_type, "budget": budget.to_json()},
        )
        if not created and not analysis.stale and analysis.status != Analysis.Status.FAILED:
            return analysis, False
        plan(analysis, loads(log.raw))
        launch(analysis)
    return analysis, True


def plan(analysis: Analysis, log: dict[str, Any]) -> None:
    """(Re)store the decision points in chunks and reset the progress."""
    indices = [point.index for point in decision_points(log)]
    size = max(1, settings.ANALYSIS_CHUNK_DECISIONS)
    analysis.chunks.all().delete()
    groups = interleaved(indices, max(1, -(-len(indices) // size)))
    AnalysisChunk.objects.bulk_create(
        AnalysisChunk(analysis=analysis, number=number, indices=group)
        for number, group in enumerate(groups)
    )
    analysis.total, analysis.done = len(indices), 0
    analysis.status, analysis.stale, analysis.error = Analysis.Status.RUNNING, False, ""
    analysis.decisions, analysis.finished = [], None
    analysis.save()
    if not indices:
        finish(analysis.pk)


def launch(analysis: Analysis) -> None:
    """Queue the chunks as a Celery group once the rows are committed."""
    numbers = list(analysis.chunks.values_list("pk", flat=True))
    if numbers:
        work = group(analyse_chunk_task.si(chunk_id) for chunk_id in numbers)
        transaction.on_commit(work.apply_async)


def run_chunk(chunk_id: int) -> None:
    """Evaluate one chunk's decisions; the last chunk to finish completes the analysis."""
    chunk = AnalysisChunk.objects.select_related("analysis__log").filter(pk=chunk_id).first()
    if chunk is None or chunk.decisions is not None:
        return  # re-planned since it was queued, or a redelivered task already done
    analysis = chunk.analysis

    def bump(_decision: Any) -> None:
        Analysis.objects.filter(pk=analysis.pk).update(done=F("done") + 1)

    try:
        decisions = analyse_log(
            loads(analysis.log.raw),
            budget=analysis.budget_value(),
            seed=analysis.seed,
            indices=set(chunk.indices),
            on_decision=bump,
        )
    except Exception as exc:
        Analysis.objects.filter(pk=analysis.pk).update(
            status=Analysis.Status.FAILED, error=f"chunk {chunk.number}: {exc}"
        )
        raise
    chunk.decisions = [decision.to_json() for decision in decisions]
    chunk.save(update_fields=["decisions"])
    finish(analysis.pk)


def finish(analysis_id: int) -> None:
    with transaction.atomic():
        analysis = Analysis.objects.select_for_update().get(pk=analysis_id)
        chunks = list(analysis.chunks.all())
        if analysis.status != Analysis.Status.RUNNING or any(c.decisions is None for c in chunks):
            return
        merged = [d for c in chunks for d in c.decisions]
        analysis.decisions = sorted(merged, key=lambda d: d["index"])
        analysis.done = analysis.total = len(merged)
        analysis.status, analysis.finished = Analysis.Status.DONE, timezone.now()
        analysis.save()
        tell_finished(analysis)


def tell_finished(analysis: Analysis) -> None:
    """The people whose game it is (its players with accounts, its submitter) hear that its
    analysis is ready: a notice each, in the finishing transaction."""
    game = Game.objects.filter(log_id=analysis.log_id).select_related("log").first()
    name = game_name(game) if game else title_of(analysis.game_type, unknown="game")
    count = len(analysis.decisions)
    for user in notices.people_of_game(analysis.log_id):
        notices.notify(
            user,
            Kind.ANALYSIS,
            f"Analysis ready: {name}",
            f"{count} decision{'s' if count != 1 else ''} evaluated: see what each one cost "
            "and the biggest mistakes.",
            url=analysis.get_absolute_url(),
        )


@shared_task(name="analysis.tasks.analyse_chunk_task")
def analyse_chunk_task(chunk_id: int) -> None:
    run_chunk(chunk_id)
