"""Celery tasks: thin wrappers taking ids (here a game type), the work is in services.py."""

from celery import shared_task

from ratings import services


@shared_task
def recompute_ratings_task(game_type: str) -> None:
    """Queued when a game arrives out of order; a no-op once someone else has recomputed."""
    services.recompute_if_stale(game_type)
