"""Every page in a real browser at a desktop (1280 px) and a phone (390 px) width.

Each page must answer 200, load without console errors, never scroll sideways (wide tables
scroll inside their own box), draw every Plotly chart it has with data, and pass axe-core with
no serious or critical violation. Screenshots go to test-artifacts/screenshots/ (or
$BROWSER_ARTIFACTS). Every wait is for a condition in the page, with a timeout generous
enough for a loaded machine.
"""

import json
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser_support import ARTIFACTS, OVERFLOW, WIDTHS
from demo_support import load_tournament_demo
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import Game, GameSeat, Source
from games.services.intake import submit_batch
from stats.models import HexCube
from tournaments import demo
from tournaments.models import Table, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A loaded machine (CI with every test at once) can take long to draw a page; the waits end as
# soon as the page is ready.
PAGE_TIMEOUT_MS = 120_000

CHARTS = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map((div) => ({
    id: div.id,
    svg: div.querySelector('svg.main-svg') !== null,
    traces: (div.data || []).length,
    points: (div.data || []).reduce((n, t) =>
        n + ((t.x || t.values || t.z || t.q1 || []).length || 0), 0),
    title: ((div.layout || {}).title || {}).text || '',
    pie: (div.data || []).every((t) => t.type === 'pie'),
    untitledAxes: Object.keys(div.layout || {}).filter((k) => /^[xy]axis\\d*$/.test(k))
        .filter((k) => !((div.layout[k].title || {}).text)),
    width: div.getBoundingClientRect().width,
}))"""
# Every .plotly-graph-div has been drawn (its SVG exists and it holds data).
# Charts are drawn as they come near the window (static/charts.js): drawAll() draws them all.
CHARTS_READY = """() => { window.deepseaCharts && window.deepseaCharts.drawAll();
    return Array.from(document.querySelectorAll('.plotly-graph-div'))
    .every((div) => div.data && div.querySelector('svg.main-svg')); }"""


@pytest.fixture
def site(django_db_blocker) -> dict[str, str]:
    """The demo tournament, simulated games of every game, and a finished lab batch."""
    load_tournament_demo()
    for game_id, players in (
        ("deep-vents", 4),
        ("deep-vents", 3),
        ("deep-sea-adventure", 3),
        ("deep-dive", 3),
    ):
        game = get_game(game_id)
        logs = simulate(game, game.ruleset(None), players, 4, seed=f"pages-{game_id}-{players}")
        submit_batch((json.dumps(log).encode() for log in logs), user=None, source=Source.SIMULATED)
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


def signed_in(browser, live_server) -> None:
    client = Client()
    client.force_login(User.objects.create_user("page-staff", is_staff=True))
    cookie = {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": live_server.url,
    }
    browser.add_cookies([cookie])


def check_page(browser, url: str, width: int, height: int, screenshot: Path) -> list[str]:
    """Problems found on one page at one window size (empty when the page is right)."""
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": height})
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    try:
        response = page.goto(url, wait_until="load")
        problems = [] if response.status == 200 else [f"answered {response.status}"]
        page.wait_for_function(CHARTS_READY, timeout=PAGE_TIMEOUT_MS)
        charts = page.evaluate(CHARTS)
        overflow = page.evaluate(OVERFLOW)
        violations = Axe().run(page).response["violations"]
        page.screenshot(path=str(screenshot), full_page=True)
    finally:
        page.close()
    problems += [f"console error: {e}" for e in errors]
    if overflow["page"] > overflow["window"]:
        problems.append(f"scrolls sideways: {overflow}")
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


def test_every_page_fits_draws_its_charts_and_passes_axe_at_desktop_and_phone_widths(
    browser, live_server, site
):
    signed_in(browser, live_server)
    (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
    problems = {}
    for name, path in site.items():
        for size, (width, height) in WIDTHS.items():
            screenshot = ARTIFACTS / "screenshots" / f"{name}-{size}.png"
            found = check_page(browser, live_server.url + path, width, height, screenshot)
            if found:
                problems[f"{path} at {width} px"] = found
            assert screenshot.stat().st_size > 0
    assert problems == {}, json.dumps(problems, indent=1)


def test_the_navigation_folds_behind_a_menu_button_on_a_phone(browser, live_server):
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/")
    menu = page.locator("#site-menu")
    assert not menu.is_visible()
    page.click(".nav-toggle")
    page.locator("#site-menu a[href='/record/']").wait_for(state="visible")
    assert page.get_attribute(".nav-toggle", "aria-expanded") == "true"
    page.close()


OVERLAPPING_TEXT = """(selector) => {
    const boxes = Array.from(document.querySelectorAll(selector))
        .filter((t) => t.textContent.trim())
        .map((t) => [t.textContent, t.getBoundingClientRect()]);
    const clash = [];
    boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, s]) => {
        const apart = r.right - 1 <= s.left || s.right - 1 <= r.left
            || r.bottom - 1 <= s.top || s.bottom - 1 <= r.top;
        if (!apart) clash.push(a + ' / ' + b);
    }));
    return clash;
}"""


def test_the_hex_charts_show_every_bar_and_keep_their_labels_apart(browser, live_server, site):
    page = browser.new_page()
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(live_server.url + site["hex"])
    page.wait_for_function(CHARTS_READY, timeout=PAGE_TIMEOUT_MS)
    # Both panels of "When X is taken" have visible bars, each on its own axes.
    bars = page.evaluate(
        """() => Array.from(document.querySelectorAll('#hex-positions .barlayer .trace'))
            .map((t) => Array.from(t.querySelectorAll('.point path'))
                .reduce((h, p) => Math.max(h, p.getBoundingClientRect().height), 0))"""
    )
    assert len(bars) == 2 and min(bars) > 5, f"bar heights per panel: {bars}"
    # Every axis's tick labels (xtick, x2tick, ytick, y2tick) stay apart from all the others.
    ticks = "#hex-positions g[class$='tick'] text"
    assert page.evaluate(f'document.querySelectorAll("{ticks}").length') > 10
    assert page.evaluate(OVERLAPPING_TEXT, ticks) == []

    page.goto(live_server.url + site["hexes"])
    page.wait_for_function(CHARTS_READY, timeout=PAGE_TIMEOUT_MS)
    labels = "#hex-scatter .textpoint text, #hex-scatter .annotation-text"
    assert page.evaluate(f"document.querySelectorAll('{labels}').length") > 3
    assert page.evaluate(OVERLAPPING_TEXT, labels) == []
    table = page.evaluate("document.querySelector('.hex-table').getBoundingClientRect().width")
    assert table <= 1280, f"the per-hex table is {table} px wide in a 1280 px window"
    page.close()


def test_the_hex_scatter_keeps_names_on_hover_only_on_a_phone(browser, live_server, site):
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + site["hexes"])
    page.wait_for_function(
        "() => { window.deepseaCharts && window.deepseaCharts.drawAll();"  # drawn when near
        " const div = document.getElementById('hex-scatter');"
        " return div.data && div.data[0].mode === 'markers'; }",
        timeout=PAGE_TIMEOUT_MS,
    )
    assert page.evaluate("document.querySelectorAll('#hex-scatter .textpoint text').length") == 0
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function(
        "() => document.querySelectorAll('#hex-scatter .textpoint text').length > 3",
        timeout=PAGE_TIMEOUT_MS,
    )
    page.close()
