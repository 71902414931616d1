"""A real Celery worker on the configured Redis and database runs the product's tasks."""

import pytest
from django.db import transaction

from players.models import Player
from players.tasks import refresh_player_stats_task

pytestmark = pytest.mark.services


def test_worker_refreshes_player_stats_queued_on_commit(celery_worker):
    with transaction.atomic():
        player = Player.objects.create(handle="marina", display_name="Marina Abyss")
        refresh_player_stats_task.delay_on_commit(player.pk)

    finished = celery_worker.wait_for(refresh_player_stats_task.name)

    assert finished.args == (player.pk,)
    assert finished.state == "SUCCESS"
    player.refresh_from_db()
    assert player.stats_refreshed_at is not None
