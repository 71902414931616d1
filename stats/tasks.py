"""Celery tasks: thin wrappers taking ids; the work is in stats/services/."""

from celery import shared_task
from django.core.cache import cache

from stats.services import aggregate, simulation


@shared_task
def simulate_chunk_task(batch_id: int, start: int, count: int) -> None:
    simulation.run_chunk(batch_id, start, count)


@shared_task
def fold_deltas_task() -> None:
    """Fold the statistics deltas into the cubes: queued after commits that appended some
    (debounced) and by celery beat as a backstop (aggregate.py)."""
    cache.delete(aggregate.FOLD_QUEUED_KEY)  # deltas committed from now on queue a new fold
    if aggregate.fold_deltas() is None:
        aggregate.queue_fold()  # another fold runs now; this one goes again after it
