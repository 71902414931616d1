"""A table's page names its game in words (games.names.game_name), not by its log id; the
organiser's desk may add the log number after it, as a detail for staff."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.confirmation_support import player_with_login, running_table, submitted_game
from tests.notices_support import NAMES

pytestmark = pytest.mark.django_db
PLAYED = datetime.datetime(2026, 11, 28, 19, 30, tzinfo=datetime.UTC)


@pytest.fixture
def played_table():
    table = running_table([player_with_login(name) for name in NAMES])
    game = submitted_game(NAMES, played_at=PLAYED, table=table)
    return table, game


def test_the_tables_page_names_its_verified_game_in_words(client, played_table):
    table, game = played_table

    page = client.get(table.get_absolute_url()).content.decode()

    assert (
        f'Result from the verified game <a href="/games/{game.log_id}/">Deep Vents, 28 Nov '
        "2026: Club Night · round 1 · table 1</a>."
    ) in page
    assert f"log {game.log_id}" not in page


def test_the_desk_shows_the_tables_game_with_its_log_number_after_it(
    client, played_table, django_user_model
):
    table, game = played_table
    client.force_login(django_user_model.objects.create_user("desk", is_staff=True))

    page = client.get(reverse("tournaments:desk-table", args=["club-night", table.pk]))

    assert (
        f'Result: <a href="/games/{game.log_id}/">the game</a> · log {game.log_id}'
        in page.content.decode()
    )


def test_the_desks_list_of_tables_links_the_game_with_its_log_number_after_it(
    client, played_table, django_user_model
):
    _, game = played_table
    client.force_login(django_user_model.objects.create_user("desk", is_staff=True))

    page = client.get(reverse("tournaments:desk", args=["club-night"])).content.decode()

    assert f'<a href="/games/{game.log_id}/">the game</a> · log {game.log_id}' in page
