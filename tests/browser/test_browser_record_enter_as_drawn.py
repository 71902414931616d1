"""The Record page's "Enter as drawn" asks for what each game's engine describes
(Game.drawn_setup): Deep Vents the seat drawn to open the bidding (DV-3), offered by the
players' names or as "seat 1", never seat 0; Deep Sea Adventure the chip values along the
path; Deep Dive nothing. The setup started is the one the inputs say."""

import pytest
from browser_support import signed_in_page
from django.contrib.auth.models import User

from engines.registry import get_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMEOUT_MS = 120_000  # generous for a loaded machine; every wait ends when the page is ready
STARTED_SETUP = """() => Object.keys(localStorage)
    .filter((key) => key.startsWith("deepsea-record:"))
    .map((key) => JSON.parse(localStorage.getItem(key)).base.setup)"""
SEAT_OPTIONS = "(select) => Array.from(select.options, (option) => option.textContent)"


def recording_page(browser, live_server):
    page, errors = signed_in_page(
        browser, live_server, User.objects.create_user("keeper"), "desktop", TIMEOUT_MS
    )
    page.goto(live_server.url + "/record/", wait_until="load")
    return page, errors


def start(page) -> list[dict]:
    page.click("#record-setup button[type=submit]")
    page.wait_for_selector("#record-play", state="visible")
    return page.evaluate(STARTED_SETUP)


def test_deep_vents_asks_who_opens_the_bidding_by_name(browser, live_server):
    page, errors = recording_page(browser, live_server)
    page.select_option("#record-game", "deep-vents")
    page.select_option("#record-ruleset", "starting-bid")
    page.select_option("#record-count", "3")
    drawn = page.locator("#record-drawn")
    opener = page.locator("#record-drawn-opening_bidder")
    before_names = opener.evaluate(SEAT_OPTIONS)
    for seat, name in enumerate(["Marina", "Nemo", "Coral"]):
        page.fill(f"input[name=player-{seat}]", name)
    named = opener.evaluate(SEAT_OPTIONS)
    label = drawn.locator("label").inner_text()
    opener.select_option(label="Nemo")
    setups = start(page)
    page.close()

    assert before_names == ["seat 1", "seat 2", "seat 3"]
    assert named == ["Marina", "Nemo", "Coral"]
    assert label.startswith("Seat drawn to open the bidding (DV-3)")
    assert setups == [{"stack": [], "opening_bidder": 1}]
    assert errors == []


def test_deep_sea_adventure_takes_the_chip_values_along_the_path(browser, live_server):
    chips = [
        value for level in get_game("deep-sea-adventure").glossary()["levels"] for value in level
    ]
    page, errors = recording_page(browser, live_server)
    page.select_option("#record-game", "deep-sea-adventure")
    page.select_option("#record-count", "2")
    for seat, name in enumerate(["Marina", "Nemo"]):
        page.fill(f"input[name=player-{seat}]", name)
    hint = page.locator("#record-drawn .hint").inner_text()
    page.fill("#record-drawn-chips", ", ".join(map(str, chips)))
    setups = start(page)
    page.close()

    assert hint.startswith("level 1: 8 chips")
    assert setups == [{"chips": chips}]
    assert errors == []


def test_deep_dive_asks_for_nothing(browser, live_server):
    page, errors = recording_page(browser, live_server)
    page.select_option("#record-game", "deep-dive")
    page.select_option("#record-count", "2")
    for seat, name in enumerate(["Marina", "Nemo"]):
        page.fill(f"input[name=player-{seat}]", name)
    inputs = page.locator("#record-drawn input, #record-drawn select").count()
    hint = page.locator("#record-drawn").inner_text()
    setups = start(page)
    page.close()

    assert inputs == 0
    assert hint == "Nothing is dealt before play."
    assert setups == [{}]
    assert errors == []
