"""A pending game told through the inbox, in Chromium on a phone (390 px) and a desktop
(1280 px): Bea and Cid get the notice of Ann's game, open it and see their opponents and the
result; Bea confirms; Cid steps the replay to event N and disputes it there, and the replay
stays at N; Ann sees who confirmed; staff open the review at event N from their notice and
decide."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from confirmations.models import Confirmation, Review
from engines.core.replay import verify
from games.models import Game, GameLog
from games.names import stored_log_name
from games.viewer import count_events, event_in_words
from notices.models import Kind, Notice
from tests.confirmation_support import (
    PASSWORD,
    player_with_login,
    submitted_game,
)
from tests.notices_support import NAMES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DISPUTED_EVENT = 6
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}


def sized_page(browser, tmp_path, width: str):
    page = browser.new_page()
    page.set_viewport_size(WIDTHS[width])
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on(
        "console",
        lambda m: (
            m.type == "error"
            and not m.location["url"].endswith("/favicon.ico")
            and page.errors.append(f"{m.text} at {m.location['url']}")
        ),
    )
    page.shots = tmp_path
    return page


def shot(page, name: str) -> None:
    width = page.viewport_size["width"]
    page.screenshot(path=str(page.shots / f"{name}-{width}.png"), full_page=True)


def sign_in_as(page, base: str, username: str) -> None:
    page.context.clear_cookies()
    page.goto(f"{base}/account/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    expect(page.locator(".account-nav")).to_contain_text(f"Signed in as {username}")


def open_inbox_from_the_menu(page, unread: int) -> None:
    if page.locator(".nav-toggle").is_visible():  # on a phone the menu folds behind it
        page.click(".nav-toggle")
    link = page.locator("#notices-link")
    expect(link.locator(".count")).to_have_text(str(unread))
    link.click()
    expect(page.locator("h1")).to_have_text("Inbox")


def open_the_notice_of(page, log_id: int, outcome) -> None:
    """The notice names the opponents with their scores and the result; opening it leads to
    the game's confirmation box."""
    notice = page.locator("li.notice.confirm.unread")
    expect(notice).to_have_count(1)
    body = notice.inner_text()
    for seat, name in enumerate(NAMES):
        assert f"{name}, {outcome.scores[seat]:g} points" in body, name
    [winner] = outcome.winners
    assert f"Result: {NAMES[winner]} won with {outcome.scores[winner]:g}." in body
    assert "Submitted by Ann Abyss" in body
    notice.locator("a.notice-subject").click()
    expect(page).to_have_url(re.compile(rf"/games/{log_id}/#confirmation$"))
    expect(page.locator("#confirmation")).to_contain_text("Waiting for confirmation")


@pytest.mark.parametrize("width", WIDTHS)
def test_players_answer_a_pending_game_from_their_inbox_and_staff_decide_at_the_moment(
    browser, live_server, tmp_path, width
):
    base = live_server.url
    ann, bea, cid = (player_with_login(name, f"{name[:3].lower()}@example.org") for name in NAMES)
    staff = get_user_model().objects.create_superuser("staff", "staff@example.org", PASSWORD)
    game = submitted_game(NAMES, ann.user, seed=7, played_at=timezone.now())
    log_id = game.log_id
    outcome = verify(json.loads(GameLog.objects.get(pk=log_id).raw))
    page = sized_page(browser, tmp_path, width)

    # Bea: one unread notice; it says what the game is; she confirms from the game's page.
    sign_in_as(page, base, bea.user.username)
    open_inbox_from_the_menu(page, unread=1)
    shot(page, "bea-inbox")
    open_the_notice_of(page, log_id, outcome)
    page.click("button:has-text('Confirm as Bea Benthic')")
    expect(page.locator("#confirmation li[data-player='bea-benthic']")).to_contain_text("confirmed")

    # Cid: the same notice; he steps the replay to event N and disputes it there.
    sign_in_as(page, base, cid.user.username)
    open_inbox_from_the_menu(page, unread=1)
    open_the_notice_of(page, log_id, outcome)
    expect(page.locator("#viewer")).to_have_attribute("data-ready", "true")
    slider = page.locator("#viewer-slider")
    for step in range(DISPUTED_EVENT + 1):
        page.click("#viewer-next")
        expect(slider).to_have_value(str(step))
    shown = event_in_words(GameLog.objects.get(pk=log_id).raw, DISPUTED_EVENT)
    expect(page.locator("#replay-dispute [data-replay-event-label]")).to_have_text(
        shown[0].upper() + shown[1:]
    )
    page.fill("#replay-dispute input[name=reason]", "I bid 2 there, not 3")
    shot(page, "cid-disputes")
    page.click("#replay-dispute button:has-text('Dispute this step')")
    expect(page.locator("#confirmation")).to_contain_text("Disputed: staff decide")
    expect(page).to_have_url(re.compile(rf"/games/{log_id}/#event-{DISPUTED_EVENT}$"))
    expect(page.locator("#viewer")).to_have_attribute("data-ready", "true")
    expect(slider).to_have_value(str(DISPUTED_EVENT))
    cid_answer = Confirmation.objects.get(player=cid)
    assert (cid_answer.answer, cid_answer.event) == ("disputed", DISPUTED_EVENT)

    # Ann, who submitted it: told of the dispute, and the game says who confirmed.
    sign_in_as(page, base, ann.user.username)
    open_inbox_from_the_menu(page, unread=1)
    expect(page.locator("li.notice.dispute")).to_contain_text(
        re.compile(rf"Cid Cephalopod disputes “[^”]+” in Deep Vents, {game.played_at:%-d %b %Y}: ")
    )
    page.goto(f"{base}/games/{log_id}/")
    answers = page.locator("#confirmation .answers")
    expect(answers.locator("li[data-player='bea-benthic']")).to_contain_text("confirmed")
    expect(answers.locator("li[data-player='cid-cephalopod']")).to_contain_text(
        re.compile(r"disputed\s+“[^”]+”: “I bid 2 there, not 3”")
    )
    shot(page, "ann-sees-answers")

    # Staff: the notice opens the review, whose link opens the replay at event N; they accept.
    page.context.clear_cookies()
    page.goto(f"{base}/admin/login/")
    page.fill("input[name=username]", "staff")
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit]")
    page.goto(f"{base}/account/notices/")
    page.locator("li.notice.dispute a.notice-subject").click()
    review = Review.objects.get(log_id=log_id)
    expect(page).to_have_url(re.compile(rf"/admin/confirmations/review/{review.pk}/change/$"))
    shot(page, "staff-review")
    # The disputed step as the replay words it, never "event N" (issue 24).
    expect(page.locator(".disputed-moment-top a.disputed-moment")).to_have_text(
        f"“{shown}”: open the replay there"
    )
    expect(page.locator("#content")).not_to_contain_text(re.compile(r"event \d"))
    page.locator(".disputed-moment-top a.disputed-moment").click()
    expect(page).to_have_url(re.compile(rf"/games/{log_id}/#event-{DISPUTED_EVENT}$"))
    expect(page.locator("#viewer")).to_have_attribute("data-ready", "true")
    expect(page.locator("#viewer-slider")).to_have_value(str(DISPUTED_EVENT))
    expect(page.locator("#viewer-position")).to_have_text(
        f"Step {DISPUTED_EVENT + 1} of {count_events(GameLog.objects.get(pk=log_id).raw)}"
    )
    expect(page.locator("#viewer-label")).to_have_text(shown[0].upper() + shown[1:])
    shot(page, "staff-at-the-moment")
    page.go_back()
    page.click("input[name=_accept]")
    # Named as its players know it, never "log N" (games.names).
    name = stored_log_name(GameLog.objects.get(pk=log_id))
    expect(page.locator(".messagelist")).to_contain_text(f"{name}: accepted.")

    assert Game.objects.get(log_id=log_id).counts
    told = Notice.objects.filter(kind=Kind.DISPUTE_DECIDED).values_list("user__username", flat=True)
    assert sorted(told) == sorted(p.user.username for p in (ann, bea, cid))
    assert staff.notices.filter(kind=Kind.DISPUTE).count() == 1
    assert page.errors == []
