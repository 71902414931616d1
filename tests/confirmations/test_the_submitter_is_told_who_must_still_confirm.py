"""The submitter learns at once, on the upload's page, and then on the game's page, who must
still confirm a game and how long is left before silence counts as consent: "waiting for
Marina and Nemo, 47 h left"."""

from __future__ import annotations

import datetime
import json

import pytest
from django.utils import timezone

from confirmations import services
from confirmations.models import Review
from games.models import GameLog, Upload
from games.services.verification import verify_log
from tests.confirmation_support import (
    player_with_login,
)
from tests.ratings_support import deep_vents_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    return {name: player_with_login(name) for name in ("Ann", "Marina", "Nemo")}


def upload_as_ann(client, players, django_capture_on_commit_callbacks, verify: bool = True):
    log = deep_vents_log(["Ann", "Nemo", "Marina"], 7, timezone.now())
    client.force_login(players["Ann"].user)
    if not verify:  # stored and queued, its verification not run yet
        return client.post("/upload/", {"log": json.dumps(log)})
    with django_capture_on_commit_callbacks(execute=True):  # verified when the request ends
        return client.post("/upload/", {"log": json.dumps(log)})


def test_the_upload_page_says_at_once_who_must_still_confirm(
    client, players, django_capture_on_commit_callbacks, settings
):
    assert settings.GAMES_CONFIRMATION_WINDOW_HOURS == 48
    response = upload_as_ann(client, players, django_capture_on_commit_callbacks)

    log = GameLog.objects.get()
    assert response["Location"] == Upload.objects.get().get_absolute_url()
    page = client.get(response["Location"])
    named = f"Deep Vents, {log.game.played_at:%-d %b %Y}: Ann, Nemo, Marina"
    # Opened a moment ago with a 48-hour window: 47 whole hours and some minutes are left.
    assert (
        f'<a href="/games/{log.pk}/">{named}</a> — waiting for Marina and Nemo, 47 h left'
        in page.content.decode()
    )
    assert f"log {log.pk}" not in page.content.decode()
    assert f"log #{log.pk}" not in page.content.decode()


def test_the_game_page_follows_the_answers_and_the_clock(
    client, players, django_capture_on_commit_callbacks
):
    upload_as_ann(client, players, django_capture_on_commit_callbacks)
    log = GameLog.objects.get()

    def sentence() -> str | None:
        page = client.get(f"/games/{log.pk}/").content.decode()
        start = page.find('<p class="waiting-for" id="waiting-for">')
        return page[start : page.index("</p>", start)].split(">", 1)[1] if start >= 0 else None

    assert sentence() == "This game is waiting for Marina and Nemo, 47 h left."
    services.confirm(log.pk, players["Marina"].user)
    assert sentence() == "This game is waiting for Nemo, 47 h left."
    Review.objects.update(deadline=timezone.now() + datetime.timedelta(hours=5, minutes=59))
    assert sentence() == "This game is waiting for Nemo, 5 h left."
    Review.objects.update(deadline=timezone.now() + datetime.timedelta(minutes=20))
    assert sentence() == "This game is waiting for Nemo, less than an hour left."
    services.confirm(log.pk, players["Nemo"].user)
    assert sentence() is None  # it counts: nobody to wait for
    upload_page = client.get(log.upload.get_absolute_url()).content.decode()
    assert "waiting for" not in upload_page


def test_the_upload_page_keeps_looking_until_the_verdict_then_stops(
    client, players, django_capture_on_commit_callbacks
):
    response = upload_as_ann(client, players, django_capture_on_commit_callbacks, verify=False)
    log = GameLog.objects.get()
    assert log.status == GameLog.Status.QUEUED

    waiting = client.get(response["Location"]).content.decode()

    assert 'hx-select="#awaiting-confirmation"' in waiting and "waiting for" not in waiting
    verify_log(log.pk)
    done = client.get(response["Location"]).content.decode()
    assert 'hx-select="#awaiting-confirmation"' not in done
    assert "waiting for Marina and Nemo, 47 h left" in done


def test_who_must_still_confirm_is_named_in_the_order_people_read_names(
    client, django_capture_on_commit_callbacks
):
    # "Émile" among the E's and "zoë" among the Z's, as no code point order has them.
    players = {name: player_with_login(name) for name in ("Ann", "zoë", "Émile", "Marina")}
    log = deep_vents_log(["Ann", "zoë", "Émile", "Marina"], 7, timezone.now())
    client.force_login(players["Ann"].user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/upload/", {"log": json.dumps(log)})

    [(waiting, _)] = services.still_waiting([GameLog.objects.get().pk]).values()

    assert [player.display_name for player in waiting] == ["Émile", "Marina", "zoë"]
