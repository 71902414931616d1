"""The confirmations app's Celery tasks, named here for Celery's discovery; each is defined
beside the work it wraps (confirmations/services.py, confirmations/notify.py)."""

from confirmations.notify import notify_players_task
from confirmations.services import count_lapsed_games_task

__all__ = ["count_lapsed_games_task", "notify_players_task"]
