"""Confirmation end to end in Chromium: a new player signs up, claims a name and uploads a
game with two other claimed players; one confirms, the other disputes an event; staff
accept it in the admin, and the players reach the leaderboard."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from confirmations.models import Review
from games.models import Game, GameLog
from games.names import stored_log_name
from games.viewer import event_in_words
from players.models import Player
from tests.confirmation_support import (
    PASSWORD,
    player_with_login,
)
from tests.ratings_support import deep_vents_log

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DISPUTED_EVENT = 5


def watched_page(browser):
    """A page collecting console errors; the admin's pages have no icon link, so Chromium's
    own try at /favicon.ico there is not one of them."""
    page = browser.new_page()
    page.errors = []

    def on_console(message) -> None:
        if message.type == "error" and not message.location["url"].endswith("/favicon.ico"):
            page.errors.append(f"{message.text} at {message.location['url']}")

    page.on("console", on_console)
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def sign_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/account/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector(f"text=Signed in as {username}")


def sign_out(page, base: str) -> None:
    page.goto(base + "/")
    page.click(".account-nav button:has-text('Sign out')")
    page.wait_for_selector(".account-nav >> text=Sign up")


def test_a_game_is_uploaded_confirmed_disputed_accepted_and_ranked(browser, live_server, tmp_path):
    base = live_server.url
    player_with_login("Bea Benthic")
    player_with_login("Cid Cephalopod")
    get_user_model().objects.create_superuser("staff", "", PASSWORD)
    log_file = tmp_path / "game.json"
    names = ["Ann Abyss", "Bea Benthic", "Cid Cephalopod"]
    log_file.write_text(json.dumps(deep_vents_log(names, 7, timezone.now())))
    page = watched_page(browser)

    # Ann signs up, claims her name and uploads the game.
    page.goto(f"{base}/account/signup/")
    page.fill("input[name=username]", "ann")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("text=Signed in as ann")
    page.click("details.account-menu summary")  # the account's own menu, in the header
    page.click("text=Claim your player name")
    page.fill("input[name=name]", "Ann Abyss")
    page.click("button:has-text('Claim')")
    page.wait_for_selector("text=You play as")
    page.goto(f"{base}/upload/")
    page.set_input_files("input[name=file]", str(log_file))
    page.click("button:has-text('Upload')")
    page.wait_for_load_state("networkidle")
    log = GameLog.objects.get()
    assert log.status == GameLog.Status.VERIFIED
    page.goto(f"{base}/games/{log.pk}/")
    assert "Waiting for confirmation" in page.inner_text("#confirmation")
    sign_out(page, base)

    # Bea signs in, sees one game waiting, confirms it from her list.
    sign_in(page, base, "bea-benthic")
    assert page.inner_text("#pending-link .count") == "1"
    page.goto(f"{base}/account/pending/")
    page.click(f"[data-log='{log.pk}'] button:has-text('Confirm')")
    page.wait_for_selector("#nothing-pending")
    assert Review.objects.get(log=log).status == Review.Status.PENDING  # Cid still to answer
    assert not Game.objects.get(log=log).counts
    sign_out(page, base)

    # Cid signs in, opens the replay from his list, steps it to an event and disputes it.
    sign_in(page, base, "cid-cephalopod")
    page.goto(f"{base}/account/pending/")
    page.click(f"[data-log='{log.pk}'] h2 a[href$='#viewer']")
    page.wait_for_selector("#viewer[data-ready=true]")
    page.fill("#viewer-slider", str(DISPUTED_EVENT))  # the replay's event is the one disputed
    shown = event_in_words(log.raw, DISPUTED_EVENT)  # told as the replay tells it
    expect(page.locator("form.dispute [data-replay-event-label]")).to_have_text(
        shown[0].upper() + shown[1:]
    )
    page.fill("form.dispute input[name=reason]", "I never bid that")
    page.click("form.dispute button")
    page.wait_for_selector("text=Disputed: staff decide")
    page.click(f"#confirmation a[href='#event-{DISPUTED_EVENT}']")
    page.wait_for_function(
        f"() => document.getElementById('viewer-slider').value === '{DISPUTED_EVENT}'"
    )
    assert Review.objects.get(log=log).status == Review.Status.DISPUTED
    page.goto(f"{base}/leaderboards/deep-vents/")
    assert "Ann Abyss" not in page.content()
    sign_out(page, base)

    # Staff accept the game in the admin; it counts, and the players are ranked.
    page.goto(f"{base}/admin/login/")
    page.fill("input[name=username]", "staff")
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit]")
    review = Review.objects.get(log=log)
    page.goto(f"{base}/admin/confirmations/review/{review.pk}/change/")
    page.click("input[name=_accept]")
    # Named as its players know it, never "log N" (games.names).
    expect(page.locator(".messagelist")).to_contain_text(f"{stored_log_name(log)}: accepted.")
    assert Game.objects.get(log=log).counts
    page.goto(f"{base}/leaderboards/deep-vents/")
    board = page.content()
    page.screenshot(path=str(tmp_path / "leaderboard.png"), full_page=True)
    for name in names:
        assert name in board, name
    assert Player.objects.get(display_name="Ann Abyss").user.username == "ann"
    assert page.errors == []
