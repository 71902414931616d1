"""Celery tasks: thin wrappers taking ids; the work is in confirmations/services.py and
confirmations/notify.py."""

from celery import shared_task

from confirmations import notify, services


@shared_task
def count_lapsed_games_task() -> int:
    """Periodic (celery beat): pending games nobody disputed within the window count."""
    return services.count_lapsed_reviews()


@shared_task
def notify_players_task(review_id: int) -> int:
    """Tell the players asked to confirm a game (a notice each; e-mail per their preference)."""
    return notify.tell_players_asked(review_id)
