"""Players, and the refresh of their statistics that workers run."""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from players.models import Player


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
