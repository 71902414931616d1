"""Work done for players, outside the request cycle. Celery tasks in tasks.py call these."""

import logging

from django.db import transaction
from django.utils import timezone

from players.models import Player

logger = logging.getLogger(__name__)


def refresh_player_stats(player_id: int) -> Player | None:
    """Recompute a player's statistics and stamp when it was done.

    The per-game aggregates join this function as the games and statistics land; the stamp
    lets pages say how fresh the figures are. A player deleted since the task was queued is
    not an error: there is nothing left to refresh.
    """
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if player is None:
            logger.info("player %s no longer exists; nothing to refresh", player_id)
            return None
        player.stats_refreshed_at = timezone.now()
        player.save(update_fields=["stats_refreshed_at"])
    return player
