"""The ratings app's Celery tasks, named here for Celery's discovery; each is defined beside
the work it wraps (ratings/services.py)."""

from ratings.services import rate_games_task, rate_stranded_games_task

__all__ = ["rate_games_task", "rate_stranded_games_task"]
