"""An analysed game in a real browser (Chromium via Playwright): the win-probability chart is
drawn, the biggest mistakes are listed and link to their moment in the replay viewer."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from analysis.models import Analysis
from analysis.services import jobs
from engines.analysis import Budget, decision_points
from engines.core.log import loads
from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import GameLog, Source
from games.services.intake import submit_batch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TINY = Budget(target_se=0.2, min_playouts=4, max_playouts=8, batch=4)


@pytest.fixture
def analysed_log():
    game = get_game("deep-sea-adventure")
    logs = simulate(game, game.ruleset(None), 3, 1, seed="analysis-browser",
                    strategies=["grab-2-then-turn", "air-aware", "random"])  # fmt: skip
    submit_batch((json.dumps(log).encode() for log in logs), user=None, source=Source.SIMULATED)
    log = GameLog.objects.get(status=GameLog.Status.VERIFIED)
    analysis, _ = jobs.request_analysis(log, budget=TINY)
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE
    return log, analysis


def test_an_analysed_game_shows_its_chart_and_mistakes_linking_to_the_moments(
    browser, live_server, analysed_log, tmp_path
):
    log, analysis = analysed_log
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/games/{log.pk}/", wait_until="networkidle")
    page.wait_for_function(
        "() => { window.deepseaCharts && window.deepseaCharts.drawAll();"  # drawn when near
        " const div = document.getElementById('analysis-chart');"
        " return div && div.data && div.querySelector('svg.main-svg'); }"
    )
    chart = page.evaluate(
        "(() => { const div = document.getElementById('analysis-chart');"
        " return {traces: div.data.length, points: div.data[0].x.length}; })()"
    )
    assert chart == {"traces": 3, "points": len(analysis.decisions)}

    mistakes = page.locator("#analysis-mistakes li a")
    worst = sorted((d for d in analysis.decisions if d["cost"] > 0), key=lambda d: -d["cost"])
    assert mistakes.count() == min(10, len(worst)) > 0
    assert mistakes.first.inner_text() == f"event {worst[0]['index']}"
    mistakes.first.click()
    index = worst[0]["index"]
    page.wait_for_function(f"() => document.getElementById('viewer-slider').value === '{index}'")
    assert page.locator(f"#decision-{index}.current").count() == 1
    assert page.inner_text("#analysis-moment").startswith(f"Event {index}, seat {worst[0]['seat']}")
    page.keyboard.press("ArrowRight")  # the viewer steps on; the highlight follows it
    page.wait_for_function(
        f"() => document.getElementById('viewer-slider').value === '{index + 1}'"
    )
    page.wait_for_function(
        f"() => !document.getElementById('decision-{index}').classList.contains('current')"
    )
    page.screenshot(path=str(tmp_path / "analysis.png"), full_page=True)
    assert errors == []


def test_the_analysis_board_evaluates_every_alternative_of_the_moment_shown(
    browser, live_server, analysed_log, settings
):
    settings.ANALYSIS_BUDGET = TINY.to_json()
    log, _ = analysed_log
    point = next(decision_points(loads(log.raw)))
    client = Client()
    client.force_login(User.objects.create_user("analyst"))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    browser.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(
        f"{live_server.url}/games/{log.pk}/#event-{point.index - 1}", wait_until="networkidle"
    )
    page.wait_for_function(
        f"() => document.getElementById('viewer-slider').value === '{point.index - 1}'"
    )
    page.click("#analysis-board-run")
    count = len(point.actions)
    page.wait_for_function(
        f"() => document.querySelectorAll('#analysis-board-table tbody tr').length === {count}"
        f" && document.getElementById('analysis-board-progress').value === {count}"
    )
    rows = page.locator("#analysis-board-table tbody tr td:first-child").all_inner_texts()
    assert sorted(row.split(" ")[0] for row in rows) == sorted(a["type"] for a in point.actions)
    assert errors == []


def test_a_running_analysis_shows_live_progress_and_its_result_when_done(
    browser, live_server, analysed_log
):
    log, analysis = analysed_log
    Analysis.objects.filter(pk=analysis.pk).update(status=Analysis.Status.RUNNING, done=0)
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/games/{log.pk}/")
    assert page.locator("#analysis-chart").count() == 0
    assert page.locator("#analysis-progress").get_attribute("value") == "0"

    Analysis.objects.filter(pk=analysis.pk).update(done=2)
    page.wait_for_function(
        "() => document.getElementById('analysis-progress-text')?.textContent"
        f" === '2 of {analysis.total} decisions'",
        timeout=60_000,
    )
    Analysis.objects.filter(pk=analysis.pk).update(status=Analysis.Status.DONE, done=analysis.total)
    page.wait_for_function(
        "() => { window.deepseaCharts && window.deepseaCharts.drawAll();"  # drawn when near
        " return document.getElementById('analysis-chart')?.querySelector('svg.main-svg'); }",
        timeout=60_000,
    )
    assert page.locator("#analysis-progress").count() == 0
    assert errors == []
