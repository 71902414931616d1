"""Celery tasks: thin wrappers taking ids; the work is in stats/services/."""

from celery import shared_task

from stats.services import simulation


@shared_task
def simulate_chunk_task(batch_id: int, start: int, count: int) -> None:
    simulation.run_chunk(batch_id, start, count)
