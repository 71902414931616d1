"""The Record page in a real browser (Debian's Chromium via Playwright): a half-recorded
game is kept in localStorage after every step and comes back after a reload."""

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from games.models import RecordingDraft

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HISTORY = (
    "() => Array.from(document.querySelectorAll('#record-history li'), (li) => li.textContent)"
)


def signed_in_page(browser, live_server):
    client = Client()
    user = User.objects.create_user("keeper")
    client.force_login(user)
    browser.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return user, page, errors


def test_a_deep_dive_recorded_in_part_is_resumed_after_a_reload(browser, live_server, tmp_path):
    user, page, errors = signed_in_page(browser, live_server)
    page.goto(live_server.url + "/record/", wait_until="networkidle")
    assert page.is_hidden("#record-resume")
    page.select_option("#record-game", "deep-dive")
    page.fill("input[name=player-0]", "Marina")
    page.fill("input[name=player-1]", "Nemo")
    page.click("#record-setup button[type=submit]")
    for label in ["colour die: blue", "colour die: red", "shark die: green"]:
        steps = page.locator("#record-history li").count()
        page.get_by_role("button", name=label, exact=True).click()
        page.wait_for_function(
            f"() => document.querySelectorAll('#record-history li').length > {steps}"
        )
    before = {"status": page.inner_text("#record-status"), "history": page.evaluate(HISTORY)}
    # One entry per recording, under a key of its own (a second recording never
    # overwrites it).
    kept = page.evaluate(
        f"""() => Object.keys(localStorage)
            .filter((key) => key.startsWith('deepsea-record:{user.pk}:'))
            .map((key) => JSON.parse(localStorage.getItem(key)))"""
    )

    page.reload(wait_until="networkidle")
    offer = page.inner_text("#record-resume-list")
    page.get_by_role("button", name="Resume").click()
    page.wait_for_selector("#record-play", state="visible")
    page.wait_for_function("() => document.querySelectorAll('#record-history li').length === 3")
    after = {"status": page.inner_text("#record-status"), "history": page.evaluate(HISTORY)}
    page.screenshot(path=str(tmp_path / "resumed.png"), full_page=True)

    assert len(kept) == 1
    assert [step["event"]["type"] for step in kept[0]["steps"]] == ["dive", "dive", "shark"]
    assert "Deep Dive (Marina, Nemo): 3 steps" in offer
    assert page.is_hidden("#record-setup")
    assert after == before
    assert after["history"][2].endswith("shark die: green")
    assert errors == []


def record_three_deep_dive_steps(page, live_server):
    page.goto(live_server.url + "/record/", wait_until="networkidle")
    page.select_option("#record-game", "deep-dive")
    page.fill("input[name=player-0]", "Marina")
    page.fill("input[name=player-1]", "Nemo")
    page.click("#record-setup button[type=submit]")
    for count, label in enumerate(["colour die: blue", "colour die: red", "shark die: green"], 1):
        page.get_by_role("button", name=label, exact=True).click()
        page.wait_for_function(
            f"() => document.querySelectorAll('#record-history li').length === {count}"
        )
    page.wait_for_function(
        "() => document.getElementById('record-kept').textContent.startsWith('3 steps kept on')"
    )


def test_the_newer_copy_by_revision_is_offered_whichever_was_stamped_last(browser, live_server):
    # The server stamps a copy when it arrives: an older copy arriving after this browser
    # kept a newer one (a slow phone) is stamped later, and once hid the newer steps.
    _, page, errors = signed_in_page(browser, live_server)
    record_three_deep_dive_steps(page, live_server)
    draft = RecordingDraft.objects.get()
    newest = draft.revision
    draft.steps, draft.step_count, draft.revision = draft.steps[:2], 2, newest - 1
    draft.save()  # stamped now, after the browser's copy

    page.reload(wait_until="networkidle")
    offered_after_a_slow_copy = page.inner_text("#record-resume-list")
    # Then another phone takes a step back and keeps that further along.
    draft.revision = newest + 5
    draft.save()
    page.reload(wait_until="networkidle")
    offered_after_another_phone = page.inner_text("#record-resume-list")

    assert "Deep Dive (Marina, Nemo): 3 steps" in offered_after_a_slow_copy
    assert "Deep Dive (Marina, Nemo): 2 steps" in offered_after_another_phone
    assert errors == []


def test_undo_takes_back_the_last_step_and_history_names_the_players(browser, live_server):
    _, page, errors = signed_in_page(browser, live_server)
    page.goto(live_server.url + "/record/", wait_until="networkidle")
    page.select_option("#record-game", "deep-dive")
    page.fill("input[name=player-0]", "Marina")
    page.fill("input[name=player-1]", "Nemo")
    page.click("#record-setup button[type=submit]")
    page.wait_for_selector("#record-play", state="visible")
    first_status = page.inner_text("#record-status")
    for count, label in enumerate(["colour die: blue", "colour die: red"], 1):
        page.get_by_role("button", name=label, exact=True).click()
        page.wait_for_function(
            f"() => document.querySelectorAll('#record-history li').length === {count}"
        )

    page.click("#record-undo")
    page.wait_for_function("() => document.querySelectorAll('#record-history li').length === 1")
    page.click("#record-undo")
    page.wait_for_function("() => document.querySelectorAll('#record-history li').length === 0")

    assert page.inner_text("#record-status") == first_status
    assert page.is_disabled("#record-undo")
    page.get_by_role("button", name="colour die: blue", exact=True).click()
    page.wait_for_function("() => document.querySelectorAll('#record-history li').length === 1")
    assert page.evaluate(HISTORY) == ["Marina (seat 1): colour die: blue"]
    assert errors == []
