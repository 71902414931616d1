"""A claim of a name with history in Chromium, on a phone (390 px) and a desktop (1280 px):
the newcomer asks for Sam Smoker's name and plays meanwhile as "Sam Smoker (2)"; the
organiser of Sam's tournament approves it on the approvers' page; Sam's page then says the
name is claimed. No page scrolls sideways; screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import pytest
from browser_support import ARTIFACTS, OVERFLOW, WIDTHS

from tests.claims_support import club
from tests.confirmation_support import (
    PASSWORD,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sign_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/account/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    # On a phone the account menu is folded away: its text is there, not shown.
    page.wait_for_selector(f"text=Signed in as {username}", state="attached")


def fits(page, shot: str) -> None:
    overflow = page.evaluate(OVERFLOW)
    page.screenshot(path=str(ARTIFACTS / "screenshots" / f"{shot}.png"), full_page=True)
    assert overflow["page"] <= overflow["window"], overflow["culprits"]


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_newcomer_asks_for_a_name_and_its_organiser_approves(browser, live_server, size):
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    the_club = club()
    base = live_server.url
    page = browser.new_page()
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[size], strict=True)))
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    sign_in(page, base, "newcomer")
    page.goto(f"{base}/account/player/")
    page.fill("input[name=name]", "Sam Smoker")
    page.click("button:has-text('Claim')")
    page.wait_for_selector("#claim-waiting")
    assert "Meanwhile you play as Sam Smoker (2)" in page.inner_text(".messages")
    fits(page, f"claim-waiting-{size}")
    page.goto(f"{base}/players/sam-smoker/")
    assert page.get_attribute("#claim-status", "data-state") == "awaiting approval"
    browser.clear_cookies()  # signed out

    sign_in(page, base, "organiser")
    page.goto(f"{base}/account/claims/")
    page.wait_for_selector(".claim-request")
    fits(page, f"claims-{size}")
    page.fill(".claim-request input[name=note]", "Sam plays on Thursdays")
    page.click(".claim-request button:has-text('Approve')")
    page.wait_for_selector("#no-claims")
    assert "newcomer's claim of Sam Smoker approved" in page.inner_text(".messages")
    page.goto(f"{base}/players/sam-smoker/")
    assert page.get_attribute("#claim-status", "data-state") == "claimed"
    the_club.sam.refresh_from_db()
    assert the_club.sam.user == the_club.users["claimant"]
    assert errors == []
