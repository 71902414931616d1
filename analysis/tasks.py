"""The analysis app's Celery tasks, named here for Celery's discovery; each is defined beside
the work it wraps (analysis/services/)."""

from analysis.services.board import board_task
from analysis.services.jobs import analyse_chunk_task

__all__ = ["analyse_chunk_task", "board_task"]
