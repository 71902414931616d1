"""Every main page under the Content-Security-Policy (no 'unsafe-inline'), in Chromium: no
violation is reported, nothing is logged to the console as an error, and the charts (drawn
from data by static/charts.js, no inline script: each page at least as many as it should
have, each an SVG with data) and the upload page's live status (htmx) still work. One visit a
page makes every check; the pages with charts leave a screenshot in the test's tmp dir."""

import json
from pathlib import Path

import pytest
from browser_support import CHARTS, PAGE_TIMEOUT_MS
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import GameLog
from stats.models import HexCube

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(
    `${event.effectiveDirective} blocked ${event.blockedURI || "inline"} ` +
    `at ${event.sourceFile}:${event.lineNumber}`
  );
});
"""
# Charts are drawn as they come near the window (static/charts.js): drawAll() draws them all.
DRAWN_CHARTS = """() => { window.deepseaCharts && window.deepseaCharts.drawAll();
  return Array.from(document.querySelectorAll('.plotly-graph-div'))
  .filter((div) => div.data && div.data.length && div.querySelector('svg.main-svg')).length; }"""


@pytest.fixture
def signed_in_browser(browser, live_server):
    client = Client()
    client.force_login(User.objects.create_user("csp-staff", is_staff=True, is_superuser=True))
    cookie = {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": live_server.url,
    }
    browser.add_cookies([cookie])
    browser.add_init_script(RECORD_VIOLATIONS)
    return browser


def console_error(errors: list[str], message) -> None:
    # The admin's pages link no icon, so Chromium asks for /favicon.ico: not a page's fault.
    if message.type == "error" and not message.location["url"].endswith("/favicon.ico"):
        errors.append(message.text)


def open_page(browser, url: str, charts: int, screenshot: Path | None) -> list[str]:
    """The problems of a page (CSP violations, console errors, charts not drawn), once it has
    drawn `charts` charts; a full-page screenshot to `screenshot` if named."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda message: console_error(errors, message))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    response = page.goto(url, wait_until="networkidle")
    expected = 404 if url.endswith("/no-such-page/") else 200
    assert response.status == expected, f"{url} answered {response.status}"
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]
    # A function, not an expression: Playwright evaluates expressions with eval(), which the
    # policy (rightly) forbids. As long as a loaded machine needs: it ends once they are drawn.
    page.wait_for_function(f"() => ({DRAWN_CHARTS})() >= {charts}", timeout=PAGE_TIMEOUT_MS)
    drawn = page.evaluate(CHARTS)
    if screenshot:
        page.screenshot(path=str(screenshot), full_page=True)
        assert screenshot.stat().st_size > 0
    problems = page.evaluate("window.cspViolations")
    page.close()
    if url.endswith("/no-such-page/"):  # Chromium logs the 404 itself
        errors = [e for e in errors if "404" not in e]
    problems += [f"console error: {error}" for error in errors]
    for chart in drawn:
        if not chart["svg"]:
            problems.append(f"chart {chart['id']} has no SVG")
        if not (chart["traces"] and chart["points"]):
            problems.append(f"chart {chart['id']} has no data")
    return problems


def test_the_main_pages_raise_no_csp_violation_or_console_error_and_draw_their_charts(
    signed_in_browser, live_server, played_games, tmp_path
):
    seat = played_games
    log = GameLog.objects.filter(status="verified").first()
    hex_taken = HexCube.objects.filter(taken__gt=0).values_list("hex", flat=True).first()
    # Each page, the least number of charts it draws, and its screenshot's name.
    pages = {
        "/": (0, "home"),
        "/leaderboards/": (0, None),
        "/leaderboards/deep-vents/": (0, "leaderboard"),
        f"/players/{seat.player.handle}/": (1, "player"),
        "/tournaments/": (0, None),
        "/games/": (0, None),
        f"/games/{log.pk}/": (0, None),
        "/stats/": (0, None),
        "/stats/hexes/?min_sample=1": (1, "hexes"),
        f"/stats/hexes/{hex_taken}/": (3, "hex"),
        "/stats/strategies/?game=deep-vents": (5, "strategies"),
        "/stats/strategies/?game=deep-dive": (7, "deep-dive"),
        "/upload/": (0, None),
        f"/uploads/{log.upload_id}/": (0, None),
        "/record/": (0, None),
        "/api/docs/": (0, None),
        "/admin/": (0, None),
        "/no-such-page/": (0, None),
    }
    problems = {}
    for path, (charts, name) in pages.items():
        screenshot = tmp_path / f"{name}.png" if name else None
        if found := open_page(signed_in_browser, live_server.url + path, charts, screenshot):
            problems[path] = found
    assert problems == {}, json.dumps(problems, indent=1)


def test_the_upload_page_follows_a_batch_live_with_htmx(signed_in_browser, live_server, tmp_path):
    game = get_game("deep-dive")
    batch = tmp_path / "night.jsonl"
    logs = simulate(game, game.ruleset(None), 3, 3, seed="csp-upload")
    batch.write_text("".join(json.dumps(log) + "\n" for log in logs) + "{oops\n")
    page = signed_in_browser.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(live_server.url + "/upload/")
    page.set_input_files("#file", str(batch))
    page.click("button[type=submit]")
    page.wait_for_url("**/uploads/*/")
    page.wait_for_function(
        "() => document.getElementById('progress-text').textContent.startsWith('3 of 3')",
        timeout=15_000,
    )
    assert "line 4:" in page.inner_text("#upload-status")
    assert page.evaluate("window.cspViolations") == []
    assert errors == []
