"""A table's page names its game in words (games.names.game_name), not by its log id; the
organiser's desk, where the table is named already, tells its game by who sent it and when
(issue 24: organisers read games in words too)."""

from __future__ import annotations

import datetime
import json

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from games.models import Upload
from games.services.table_desk import table_desk
from games.services.verification import verify_log
from tests.confirmation_support import player_with_login, running_table, submitted_game
from tests.notices_support import NAMES
from tests.ratings_support import deep_vents_log

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


def test_the_desk_tells_the_tables_game_by_who_sent_it_and_when_not_its_log_number(
    client, played_table, django_user_model
):
    table, game = played_table
    sent = datetime.datetime(2026, 11, 28, 21, 5, tzinfo=datetime.UTC)
    Upload.objects.filter(logs=game.log_id).update(created=sent)
    client.force_login(django_user_model.objects.create_user("desk", is_staff=True))

    page = client.get(reverse("tournaments:desk-table", args=["club-night", table.pk]))

    # Sent by nobody signed in (the test's submission): the site.
    assert (
        f'Result: <a href="/games/{game.log_id}/">the game the site sent at 21:05, 28 Nov '
        "(verified)</a>."
    ) in page.content.decode()
    assert f"log {game.log_id}" not in page.content.decode()


def test_the_desks_list_of_tables_links_the_game_and_says_its_state_without_a_log_number(
    client, played_table, django_user_model
):
    _table, game = played_table
    client.force_login(django_user_model.objects.create_user("desk", is_staff=True))

    page = client.get(reverse("tournaments:desk", args=["club-night"])).content.decode()

    assert f'<a href="/games/{game.log_id}/">the game</a></p>' in page
    assert '<p class="note">verified result</p>' in page
    assert f"log {game.log_id}" not in page


def test_the_history_tells_each_result_by_its_game_and_its_players_names(
    client, played_table, django_user_model
):
    table, game = played_table
    organiser = django_user_model.objects.create_user("desk", is_staff=True)
    client.force_login(organiser)
    seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.seat)
    hand = {f"place_{seat.pk}": str(n) for n, seat in enumerate(seats, 1)}
    hand |= {f"points_{seat.pk}": str(40 - 10 * n) for n, seat in enumerate(seats, 1)}
    url = reverse("tournaments:desk-table", args=["club-night", table.pk])

    client.post(url, hand)
    page = client.get(url).content.decode()

    sent = timezone.localtime(game.log.upload.created)
    places = "; ".join(
        f"{seat.player.display_name} place {n}, {40 - 10 * n} points"
        for n, seat in enumerate(seats, 1)
    )
    assert (
        f'<a href="/games/{game.log_id}/">the game the site sent at {sent:%H:%M}, '
        f"{sent.day} {sent:%b} (verified)</a> → by hand: {places}</li>"
    ) in page
    assert f"log {game.log_id}" not in page
    assert not any(seat.player.handle in page.split('id="history"')[1] for seat in seats)


def test_the_desk_says_why_a_tables_game_was_rejected_in_words_not_the_logs_fields(
    client, django_user_model
):
    table = running_table([player_with_login(name) for name in NAMES])
    log = deep_vents_log(NAMES, 1, PLAYED)
    log["result"]["scores"] = [score + 1 for score in log["result"]["scores"]]
    stored = verify_log(table_desk().attach(table.pk, json.dumps(log), user=None, filename="").pk)
    client.force_login(django_user_model.objects.create_user("desk", is_staff=True))

    page = client.get(reverse("tournaments:desk", args=["club-night"])).content.decode()

    assert stored.error["text"].startswith("result.scores: ")  # the API's, as it was
    message = stored.error["message"]
    assert message.startswith("claimed scores ")
    # The reason is the engine's sentence, capitalised once (games.viewer.error_in_words).
    reason = escape(message[0].upper() + message[1:])
    assert f'<p class="note">its game was rejected: {reason}; undo it</p>' in page
    assert f"log {stored.pk}" not in page


def test_the_games_page_names_its_tournament_once_in_its_heading_and_links_on(client, played_table):
    table, game = played_table

    page = client.get(f"/games/{game.log_id}/").content.decode()

    top = page[page.index("<h1") : page.index('id="verdict"')]
    assert top.count("Club Night") == 1  # in the heading, the game's name
    assert (
        f'<p class="tournament-link"><a href="{table.get_absolute_url()}">The table</a> · '
        f'<a href="{table.round.tournament.get_absolute_url()}">the tournament</a></p>'
    ) in top


def test_the_history_tells_a_game_in_the_state_it_had_then_and_the_state_it_has_now(
    client, django_user_model
):
    table = running_table([player_with_login(name) for name in NAMES])
    raw = json.dumps(deep_vents_log(NAMES, 1, PLAYED))
    stored = table_desk().attach(table.pk, raw, user=None, filename="")
    client.force_login(django_user_model.objects.create_user("desk", is_staff=True))
    url = reverse("tournaments:desk-table", args=["club-night", table.pk])

    # Undone while the game still waited for a worker, which verified it afterwards.
    client.post(reverse("tournaments:desk-undo", args=["club-night", table.pk]))
    verify_log(stored.pk)
    history = client.get(url).content.decode().split('id="history"')[1]

    assert "(queued then, verified now)</a> → no result</li>" in history
