"""The stats app's Celery tasks, named here for Celery's discovery; each is defined beside
the work it wraps (stats/services/)."""

from stats.services.aggregate import fold_deltas_task
from stats.services.simulation import simulate_chunk_task

__all__ = ["fold_deltas_task", "simulate_chunk_task"]
