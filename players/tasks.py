"""Celery tasks: thin wrappers taking ids, the work is in services.py."""

from celery import shared_task

from players import services


@shared_task
def refresh_player_stats_task(player_id: int) -> None:
    services.refresh_player_stats(player_id)
