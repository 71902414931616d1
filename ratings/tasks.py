"""Celery tasks: thin wrappers taking ids (here a game type), the work is in services.py."""

import logging

from celery import Task, shared_task
from django.conf import settings
from django.db import transaction

from deepsea import broker
from deepsea.celery import retry_after_outage
from deepsea.outages import INFRASTRUCTURE_ERRORS
from ratings import services
from ratings.models import RatingLedger

logger = logging.getLogger(__name__)

RECOMPUTE_TASK = "ratings.tasks.recompute_ratings_task"


@shared_task(bind=True)
def recompute_ratings_task(self: Task, game_type: str, unless_busy: bool = False) -> None:
    """Queued when a game arrives out of order; a no-op once someone else has recomputed.
    `unless_busy` (queued by the periodic check) skips it while another holds the ledger:
    that one is a recompute, or the check comes back in a few seconds."""
    try:
        with transaction.atomic():
            if unless_busy and not (
                RatingLedger.objects.select_for_update(skip_locked=True)
                .filter(game_type=game_type)
                .exists()
            ):
                return
            services.recompute_if_stale(game_type)
    except INFRASTRUCTURE_ERRORS as error:
        raise retry_after_outage(self, error) from error


@shared_task
def queue_lost_recomputes_task() -> list[str]:
    """Periodic (celery beat): a stale ledger whose recompute message is not in the broker
    (never sent, lost with it, or taken by a worker that died) gets one queued; returns
    the game types."""
    stale = set(RatingLedger.objects.filter(stale=True).values_list("game_type", flat=True))
    if not stale:
        return []
    messages = broker.pending([recompute_ratings_task.app.conf.task_default_queue])
    on_its_way = {
        message.args[0]
        for message in messages or []  # unknown (no broker to ask): queue one anyway
        if message.task == RECOMPUTE_TASK
        and message.args
        and message.reserved_for() <= settings.GAMES_LEASE_SECONDS
    }
    lost = sorted(stale - on_its_way)
    for game_type in lost:
        recompute_ratings_task.delay(game_type, unless_busy=True)
    if lost:
        logger.warning("queued the lost ratings recompute of %s", ", ".join(lost))
    return lost
