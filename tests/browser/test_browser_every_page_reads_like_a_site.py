"""Every page at 390 and 1280 px, with realistic data (the demo, simulated games of every game, a
player with a long name and hundreds of games, an analysed game, a bot game, an upload, a game
waiting for confirmation), signed in as a player, each page visited once a width for two sets
of checks, reported apart; the pages in four groups by area (GROUPS), a test each, which
pytest-xdist runs side by side:

- fits, draws its charts and passes axe: it answers 200, logs no console error, never scrolls
  sideways (wide tables scroll inside their own box), draws every Plotly chart it has with
  data, a title and titled axes, no wider than the window, and passes axe-core with no serious
  or critical violation; a full-page screenshot of each goes to test-artifacts/screenshots/
  (or $BROWSER_ARTIFACTS). The staff-only lab is visited signed in as staff.
- speaks the players' language (issue 27's "Done when"): it answers 200, scrolls not
  sideways, logs no console error, and no visible text has a game id, a bot id (alone in a
  cell too: "grower"), a 0-based seat number or an engine hash in it; nor has any e-mail the
  site sent meanwhile.

Every wait is for a condition in the page, with a timeout generous enough for a loaded machine.
"""

import json
from dataclasses import dataclass

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.contrib.auth.models import User
from django.core import mail

from games.models import Game, GameSeat, Source
from stats.models import HexCube
from tests.browser_support import (
    ARTIFACTS,
    CHARTS,
    CHARTS_READY,
    OVERFLOW,
    PAGE_TIMEOUT_MS,
    WIDTHS,
    page_and_its_errors,
    sign_in,
)
from tests.every_page_support import (
    SEAT_NUMBERS_ALLOWED_IN,
    Site,
    bot_words,
    jargon,
    realistic_site,
)
from tournaments import demo
from tournaments.models import Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "every-page-demo"
FITS = "every page fits, draws its charts and passes axe at desktop and phone widths"
SPEAKS = "every page fits a phone and a desktop and speaks the players' language"
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
# Every chart the page holds drawn: the ones not yet near the window too, and the ones whose
# figure is fetched (data-figure-src: the rating chart).
FIGURES_DRAWN = """() => { window.deepseaCharts && window.deepseaCharts.drawAll();
    return Array.from(document.querySelectorAll('div[data-plotly-figure], div[data-figure-src]'))
        .every((div) => div.querySelector('svg.main-svg')); }"""


@dataclass
class Visit:
    path: str
    screenshot: str | None = None  # set: the page's fit, charts and axe are checked
    language: bool = False  # the page's words are checked
    staff: bool = False  # signed in as staff (a staff-only page)


def fitting_pages() -> dict[str, str]:
    """The pages whose fit, charts and axe are checked, by the name of their screenshot."""
    tournament = Tournament.objects.get(slug=demo.DEMO_SLUG)
    table = Table.objects.filter(round__tournament=tournament).first()
    player = GameSeat.objects.filter(player__isnull=False).first().player
    human = Game.objects.filter(source=Source.TOURNAMENT).first()
    hex_taken = HexCube.objects.filter(taken__gt=0).values_list("hex", flat=True).first()
    return {
        "home": "/",
        "tournaments": "/tournaments/",
        "tournament": tournament.get_absolute_url(),
        "seating": f"/tournaments/{tournament.slug}/round/1/",
        "table": table.get_absolute_url(),
        "player": player.get_absolute_url(),
        "leaderboards": "/leaderboards/",
        "leaderboard": "/leaderboards/deep-vents/",
        "backtest": "/leaderboards/deep-vents/backtest/",
        "games": "/games/",
        "game": human.get_absolute_url(),
        "stats": "/stats/",
        "hexes": "/stats/hexes/?min_sample=1",
        "hex": f"/stats/hexes/{hex_taken}/",
        "deep-vents-strategies": "/stats/strategies/?game=deep-vents",
        "adventure-strategies": "/stats/strategies/?game=deep-sea-adventure",
        "deep-dive-strategies": "/stats/strategies/?game=deep-dive",
        "lab": "/stats/lab/",
        "record": "/record/",
        "upload": "/upload/",
        "uploads": "/uploads/",
    }


def pages_in_players_words(site: Site) -> list[str]:
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


def visits(site: Site) -> list[Visit]:
    """Each page once, with the checks it gets; the staff-only page last."""
    by_path: dict[str, Visit] = {}
    for name, path in fitting_pages().items():
        by_path[path] = Visit(path, screenshot=name, staff=name == "lab")
    for path in pages_in_players_words(site):
        by_path.setdefault(path, Visit(path)).language = True
    return sorted(by_path.values(), key=lambda visit: visit.staff)


# The pages in groups by the site's area (the path's first part), each group a test of its own
# so that pytest-xdist spreads the visits over its processes; the e-mails are read with the
# group of the account pages.
GROUPS = {
    "tournaments-players": ("", "tournaments", "players"),
    "leaderboards-games": ("leaderboards", "games"),
    "stats": ("stats",),
    "record-uploads-analysis-account": ("record", "upload", "uploads", "analysis", "account"),
}
E_MAILS_READ_WITH = "record-uploads-analysis-account"


def group_of(path: str) -> str:
    """The group of the page's area; a page of an area no group names fails every group."""
    area = path.split("?")[0].strip("/").split("/")[0]
    (group,) = [group for group, areas in GROUPS.items() if area in areas]
    return group


def realistic_site_for_every_page() -> Site:
    return realistic_site(uploader="nemo")


@pytest.fixture
def site(monkeypatch, request, made_once) -> Site:
    """The realistic site (every_page_support.realistic_site, tens of CPU seconds) made once
    per run and put back for each group after the first, then simulated games of every
    game."""
    monkeypatch.setenv("DEMO_ADMIN_PASSWORD", PASSWORD)
    site = made_once(realistic_site_for_every_page)
    request.getfixturevalue("simulated_games_of_every_game")
    return site


def chart_and_axe_problems(charts: list[dict], violations: list[dict], width: int) -> list[str]:
    problems = []
    for chart in charts:
        if not (chart["svg"] and chart["traces"] and chart["points"]):
            problems.append(f"chart {chart['id']} is not drawn with data: {chart}")
        if not chart["title"]:
            problems.append(f"chart {chart['id']} has no title")
        if not chart["pie"] and chart["untitledAxes"]:
            problems.append(f"chart {chart['id']}: axes without a title {chart['untitledAxes']}")
        if chart["width"] > width:
            problems.append(f"chart {chart['id']} is wider than the window: {chart['width']}")
    for violation in violations:
        if violation["impact"] in ("serious", "critical"):
            targets = [node["target"] for node in violation["nodes"][:3]]
            problems.append(f"axe {violation['id']} ({violation['impact']}): {targets}")
    return problems


def words_problems(page) -> list[str]:
    """The builders' words on the page (see every_page_support.jargon)."""
    words = jargon(page.inner_text("body"), seat_numbers=False)
    words += jargon(page.evaluate(TEXT_BUT_OTHER_ISSUES, SEAT_NUMBERS_ALLOWED_IN))
    words += page.evaluate(ALONE_IN_A_CELL, sorted(bot_words()))
    return sorted(set(words))[:8]


@pytest.mark.parametrize("group", GROUPS)
def test_every_page_at_a_phone_and_a_desktop_width_fits_draws_its_charts_passes_axe_and_speaks_the_players_language(  # noqa: E501
    browser, live_server, site, group, subtests
):
    page, errors = page_and_its_errors(browser)
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    page.goto(f"{live_server.url}/account/login/")
    page.fill("input[name=login]", "nemo")
    page.fill("input[name=password]", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("text=Signed in as nemo")
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    unfit: dict[str, list] = {}
    misspoken: dict[str, dict] = {}
    staff = False
    for visit in [visit for visit in visits(site) if group_of(visit.path) == group]:
        if visit.staff and not staff:
            sign_in(browser, live_server, User.objects.create_user("page-staff", is_staff=True))
            staff = True
        for size, (width, height) in WIDTHS.items():
            errors.clear()
            page.set_viewport_size({"width": width, "height": height})
            # The page's load, then its charts: no wait for the network to fall quiet (half a
            # second a visit), as the console errors are read after every other check.
            response = page.goto(live_server.url + visit.path)
            page.wait_for_function(CHARTS_READY, timeout=PAGE_TIMEOUT_MS)
            page.wait_for_function(FIGURES_DRAWN, timeout=PAGE_TIMEOUT_MS)
            common = []
            if response.status != 200:
                common.append(f"answered {response.status}")
            overflow = page.evaluate(OVERFLOW)
            if overflow["page"] > overflow["window"]:
                common.append(f"scrolls sideways: {overflow}")
            where = f"{visit.path} at {width} px"
            unfitting = []
            if visit.screenshot:
                charts = page.evaluate(CHARTS)
                violations = Axe().run(page).response["violations"]
                screenshot = ARTIFACTS / "screenshots" / f"{visit.screenshot}-{size}.png"
                page.screenshot(path=str(screenshot), full_page=True)
                assert screenshot.stat().st_size > 0
                unfitting = chart_and_axe_problems(charts, violations, width)
            words = words_problems(page) if visit.language else []
            common += [f"console error: {error}" for error in errors]
            if visit.screenshot and common + unfitting:
                unfit[where] = common + unfitting
            if visit.language:
                found = {"problems": common} if common else {}
                if words:
                    found["jargon"] = words
                if found:
                    misspoken[where] = found
                    name = visit.path.strip("/").replace("/", "_").replace("?", "_") or "home"
                    page.screenshot(
                        path=str(ARTIFACTS / "screenshots" / f"every-{name}-{size}.png")
                    )
    # What the site e-mailed meanwhile (the demo's confirmations and disputes) too.
    for message in mail.outbox if group == E_MAILS_READ_WITH else []:
        words = jargon(f"{message.subject}\n{message.body}")
        if words:
            misspoken[f"e-mail {message.subject!r}"] = {"jargon": sorted(set(words))[:8]}
    with subtests.test(FITS):
        assert unfit == {}, json.dumps(unfit, indent=1)
    with subtests.test(SPEAKS):
        assert misspoken == {}, json.dumps(misspoken, indent=1)
