"""Every page at 390 and 1280 px, with realistic data (the demo, a player with a long name and
hundreds of games, an analysed game, a bot game, an upload, a game waiting for confirmation),
signed in as a player: no page scrolls sideways, none logs a console error, and no visible
text has a game id, a bot id (alone in a cell too: "grower"), a 0-based seat number or an
engine hash in it; nor has any e-mail the site sent meanwhile (issue 27's "Done when")."""

import json

import pytest
from django.core import mail

from tests.browser_support import ARTIFACTS, OVERFLOW, WIDTHS
from tests.every_page_support import (
    SEAT_NUMBERS_ALLOWED_IN,
    bot_words,
    jargon,
    realistic_site,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "every-page-demo"
# The page's visible text without the parts named (innerText skips what is hidden).
TEXT_BUT_OTHER_ISSUES = """(selectors) => {
    let text = document.body.innerText;
    for (const element of document.querySelectorAll(selectors.join(","))) {
        text = text.replace(element.innerText, "");
    }
    return text;
}"""
# Table cells and list items whose whole text is one of these words.
ALONE_IN_A_CELL = """(words) => Array.from(document.querySelectorAll("td, th, li, dd"))
    .map((element) => element.innerText.trim()).filter((text) => words.includes(text))"""


def pages(site) -> list[str]:
    t = f"/tournaments/{site.tournament}"
    return [
        "/",
        "/tournaments/",
        f"{t}/",
        f"{t}/round/1/",
        f"{t}/round/1/table/1/",
        f"/players/{site.heavy_player}/",
        "/players/marina/",
        "/leaderboards/",
        "/leaderboards/deep-vents/",
        "/leaderboards/deep-sea-adventure/",
        "/leaderboards/deep-sea-adventure-boost/",
        "/leaderboards/deep-dive/",
        "/leaderboards/deep-dive/backtest/",
        "/games/",
        f"/games/{site.analysed_log}/",
        f"/games/{site.bot_log}/",
        "/stats/",
        "/stats/hexes/",
        f"/stats/hexes/{site.hex_id}/",
        "/stats/strategies/",
        "/stats/strategies/?game=deep-dive",
        "/analysis/turn-back/",
        "/analysis/method/",
        "/upload/",
        "/uploads/",
        f"/uploads/{site.upload}/",
        "/account/pending/",
    ]


def test_every_page_fits_a_phone_and_a_desktop_and_speaks_the_players_language(
    browser, live_server, monkeypatch
):
    monkeypatch.setenv("DEMO_ADMIN_PASSWORD", PASSWORD)
    site = realistic_site(uploader="nemo")
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/account/login/")
    page.fill("input[name=login]", "nemo")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("text=Signed in as nemo")
    problems = {}
    for path in pages(site):
        for size, (width, height) in WIDTHS.items():
            errors.clear()
            page.set_viewport_size({"width": width, "height": height})
            response = page.goto(live_server.url + path, wait_until="networkidle")
            # Charts are drawn as they come near the window: all of them, now.
            page.evaluate("() => window.deepseaCharts && window.deepseaCharts.drawAll()")
            page.wait_for_function(
                "() => Array.from(document.querySelectorAll('div[data-plotly-figure]'))"
                ".every((div) => div.querySelector('svg.main-svg'))"
            )
            found = {}
            if response.status != 200:
                found["status"] = response.status
            overflow = page.evaluate(OVERFLOW)
            if overflow["page"] > overflow["window"]:
                found["sideways"] = overflow
            words = jargon(page.inner_text("body"), seat_numbers=False)
            words += jargon(page.evaluate(TEXT_BUT_OTHER_ISSUES, SEAT_NUMBERS_ALLOWED_IN))
            words += page.evaluate(ALONE_IN_A_CELL, sorted(bot_words()))
            if words:
                found["jargon"] = sorted(set(words))[:8]
            if errors:
                found["console"] = errors[:3]
            if found:
                problems[f"{path} at {width} px"] = found
                name = path.strip("/").replace("/", "_").replace("?", "_") or "home"
                page.screenshot(path=str(ARTIFACTS / "screenshots" / f"every-{name}-{size}.png"))
    # What the site e-mailed meanwhile (the demo's confirmations and disputes) too.
    for message in mail.outbox:
        words = jargon(f"{message.subject}\n{message.body}")
        if words:
            problems[f"e-mail {message.subject!r}"] = {"jargon": sorted(set(words))[:8]}
    assert problems == {}, json.dumps(problems, indent=1)
