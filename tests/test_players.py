"""Players, and the refresh of their statistics that workers run."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from players.models import Player
from players.services import refresh_player_stats
from players.tasks import refresh_player_stats_task


@pytest.mark.django_db
def test_two_players_cannot_share_a_handle():
    Player.objects.create(handle="marina", display_name="Marina Abyss")

    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(handle="marina", display_name="Another Marina")


@pytest.mark.django_db
def test_a_handle_must_be_a_slug():
    player = Player(handle="not a slug!", display_name="Spacey")

    with pytest.raises(ValidationError) as error:
        player.full_clean()

    assert "handle" in error.value.message_dict


def test_a_player_reads_as_name_and_handle():
    assert str(Player(handle="coral", display_name="Coral Reefson")) == "Coral Reefson (@coral)"


@pytest.mark.django_db
def test_refresh_stamps_the_player():
    player = Player.objects.create(handle="kelp", display_name="Kelpie Drift")

    refreshed = refresh_player_stats(player.pk)

    player.refresh_from_db()
    assert refreshed == player
    assert player.stats_refreshed_at is not None


@pytest.mark.django_db
def test_refresh_of_a_deleted_player_does_nothing():
    player = Player.objects.create(handle="ghost", display_name="Ghost Crab")
    player_id = player.pk
    player.delete()

    assert refresh_player_stats(player_id) is None
    assert not Player.objects.exists()


@pytest.mark.django_db
def test_refresh_queued_in_a_rolled_back_transaction_is_never_sent(
    django_capture_on_commit_callbacks,
):
    class RolledBack(Exception):
        pass

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(RolledBack), transaction.atomic():
            ghost = Player.objects.create(handle="ghost", display_name="Ghost Crab")
            refresh_player_stats_task.delay_on_commit(ghost.pk)
            raise RolledBack
        kept = Player.objects.create(handle="kelp", display_name="Kelpie Drift")
        refresh_player_stats_task.delay_on_commit(kept.pk)

    assert len(callbacks) == 1
    kept.refresh_from_db()
    assert kept.stats_refreshed_at is not None
