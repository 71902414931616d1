"""Every main page under the Content-Security-Policy (no 'unsafe-inline'), in Chromium: no
violation is reported, nothing is logged to the console as an error, and the charts (drawn
from data by static/charts.js, no inline script) and the upload page's live status (htmx)
still work."""

import json

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import GameLog, GameSeat, Source
from games.services.intake import submit_batch

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
def games_played():
    for game_id, players, source in (
        ("deep-vents", 3, Source.HUMAN),
        ("deep-vents", 4, Source.SIMULATED),
    ):
        game = get_game(game_id)
        logs = simulate(game, game.ruleset(None), players, 3, seed=f"csp-{source}")
        submit_batch((json.dumps(log).encode() for log in logs), user=None, source=source)
    return GameSeat.objects.filter(player__isnull=False).select_related("player").first()


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


def open_page(browser, url: str, charts: int = 0) -> tuple[list[str], list[str]]:
    """(CSP violations, console errors) of a page, once it has drawn `charts` charts."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda message: console_error(errors, message))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    response = page.goto(url, wait_until="networkidle")
    expected = 404 if url.endswith("/no-such-page/") else 200
    assert response.status == expected, f"{url} answered {response.status}"
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]
    # A function, not an expression: Playwright evaluates expressions with eval(), which the
    # policy (rightly) forbids.
    page.wait_for_function(f"() => ({DRAWN_CHARTS})() >= {charts}", timeout=15_000)
    violations = page.evaluate("window.cspViolations")
    page.close()
    return violations, errors


def test_the_main_pages_raise_no_csp_violation_and_draw_their_charts(
    signed_in_browser, live_server, games_played
):
    seat = games_played
    log = GameLog.objects.filter(status="verified").first()
    pages = {
        "/": 0,
        "/leaderboards/": 0,
        "/leaderboards/deep-vents/": 0,
        f"/players/{seat.player.handle}/": 1,
        "/tournaments/": 0,
        "/games/": 0,
        f"/games/{log.pk}/": 0,
        "/stats/": 0,
        "/stats/hexes/?min_sample=1": 1,
        "/stats/strategies/?game=deep-vents": 5,
        "/upload/": 0,
        f"/uploads/{log.upload_id}/": 0,
        "/record/": 0,
        "/api/docs/": 0,
        "/admin/": 0,
        "/no-such-page/": 0,
    }
    problems = {}
    for path, charts in pages.items():
        violations, errors = open_page(signed_in_browser, live_server.url + path, charts)
        if path == "/no-such-page/":  # Chromium logs the 404 itself
            errors = [e for e in errors if "404" not in e]
        if violations or errors:
            problems[path] = violations + errors
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
