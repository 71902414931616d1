"""Celery tasks: thin wrappers taking ids (here a game type), the work is in services.py."""

import logging
from datetime import timedelta

from celery import Task, shared_task
from django.utils import timezone

from common.outages import INFRASTRUCTURE_ERRORS, retry_after_outage
from ratings import services
from ratings.models import PendingRating, RatingLedger

logger = logging.getLogger(__name__)

# Pending this long, a game's rater is presumed lost (it normally runs milliseconds after
# the verifying commit).
STRANDED_AFTER = timedelta(seconds=5)


@shared_task(bind=True)
def rate_games_task(self: Task, game_type: str) -> None:
    """Rate the game type's pending games, catching up however far back they go: queued when
    they were counted outside a worker (a web request, a command), or when their catch-up was
    too long for the worker that verified them. A no-op when another rater has taken them."""
    try:
        services.rate_until_caught_up(game_type)
    except INFRASTRUCTURE_ERRORS as error:
        raise retry_after_outage(self, error) from error


@shared_task
def rate_stranded_games_task() -> list[str]:
    """Periodic (celery beat): rate the games no rater took in (its worker died, or its
    message was lost) and the catch-ups still due; returns the game types rated."""
    stranded = set(
        PendingRating.objects.filter(created__lt=timezone.now() - STRANDED_AFTER)
        .values_list("game_type", flat=True)
        .distinct()
    )
    stranded |= set(RatingLedger.objects.filter(stale=True).values_list("game_type", flat=True))
    rated = [
        game_type
        for game_type in sorted(stranded)
        if services.rate_until_caught_up(game_type) is not None
    ]
    if rated:
        logger.warning("rated the stranded pending games of %s", ", ".join(rated))
    return rated
