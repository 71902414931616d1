"""The games app's Celery tasks, named here for Celery's discovery; each is defined beside
the work it wraps (games/services/)."""

from games.services.batch_intake import read_batch_task
from games.services.sweep import sweep_stuck_logs_task
from games.services.verification import verify_log_task, verify_logs_task

__all__ = ["read_batch_task", "sweep_stuck_logs_task", "verify_log_task", "verify_logs_task"]
