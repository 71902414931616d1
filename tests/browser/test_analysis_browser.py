"""An analysed game in a real browser (Chromium via Playwright), at 390 and 1280 px: the
chances chart under the replay's board (a click jumps the replay), the move list's marks and
named moves, each player's accuracy, the analysis board and the live progress. Expected marks
and accuracy are computed in the test from the documented formulas."""

import json
import math
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from browser_support import ARTIFACTS, OVERFLOW, WIDTHS
from django.contrib.auth.models import User
from django.test import Client

from analysis.models import Analysis
from analysis.services import jobs
from engines.analysis import Budget, decision_points
from engines.core.log import loads
from engines.core.replay import start
from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import GameLog, Source
from games.services.intake import submit_batch

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TINY = Budget(target_se=0.2, min_playouts=4, max_playouts=8, batch=4)


def floatformat(value: float, places: int) -> str:
    """As the page writes a figure, in the move list and the moment alike (the chances
    rounded once on the server, the accuracy by floatformat): the float's shortest repr,
    rounded half up."""
    return str(Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP))


def a_log_analysed() -> tuple[int, int]:
    """A Deep Sea Adventure game analysed at a tiny budget: its log's and analysis's ids."""
    game = get_game("deep-sea-adventure")
    logs = list(simulate(game, game.ruleset(None), 3, 1, seed="analysis-browser",
                    strategies=["grab-2-then-turn", "air-aware", "random"]))  # fmt: skip
    for player, name in zip(logs[0]["players"], ("Marina", "Nemo", "Coral"), strict=True):
        player["name"] = name
    submit_batch((json.dumps(log).encode() for log in logs), user=None, source=Source.SIMULATED)
    log = GameLog.objects.get(status=GameLog.Status.VERIFIED)
    analysis, _ = jobs.request_analysis(log, budget=TINY)
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE
    return log.pk, analysis.pk


@pytest.fixture
def analysed_log(made_once):
    log, analysis = made_once(a_log_analysed)
    return GameLog.objects.get(pk=log), Analysis.objects.get(pk=analysis)


def lichess_accuracy(drop: float) -> float:
    """lichess's per-move accuracy, written out again here from its documentation."""
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * (drop * 100)) - 3.1669))


def expected_mark(decision) -> str | None:
    drop = decision["cost"] if decision["cost"] > 2 * decision["cost_se"] else 0.0
    for name, least in (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05)):
        if drop >= least:
            return name
    return None


@pytest.fixture
def marked_analysis(analysed_log):
    """The analysed game with an inaccuracy, a mistake and a blunder put into its stored
    decisions (the page reads what is stored; a tiny budget rarely finds marks beyond noise),
    a third of the game apart: at 390 px, marks on neighbouring decisions sit a few pixels
    apart on the chart, and a tap on one can land on its neighbour."""
    log, analysis = analysed_log
    decided = [d for d in analysis.decisions if len(d["alternatives"]) > 1]
    choices = [decided[len(decided) * sixth // 6] for sixth in (1, 3, 5)]
    for decision, (cost, cost_se) in zip(
        choices, [(0.07, 0.01), (0.12, 0.02), (0.3, 0.05)], strict=True
    ):
        other = next(e for e in decision["alternatives"] if e["action"] != decision["played"])
        decision.update(
            best=other["action"], win=0.2, best_win=0.2 + cost, cost=cost, cost_se=cost_se
        )
    analysis.save(update_fields=["decisions"])
    return log, analysis, [d["index"] for d in choices]


CHART_READY = (
    "() => { window.deepseaCharts && window.deepseaCharts.drawAll();"  # drawn when near
    " const div = document.getElementById('analysis-chart');"
    " return div && div.data && div.querySelector('svg.main-svg'); }"
)
# Where a point of the chart is in the window (plotly's axes map data to pixels).
POINT_AT = """([x, y]) => { const div = document.getElementById('analysis-chart');
    div.scrollIntoView({block: 'center'});
    const box = div.getBoundingClientRect(), layout = div._fullLayout;
    return [box.left + layout.xaxis._offset + layout.xaxis.l2p(x),
            box.top + layout.yaxis._offset + layout.yaxis.l2p(y)]; }"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_replay_shows_the_chart_marks_and_named_moves_under_the_board(
    browser, live_server, marked_analysis, size
):
    log, analysis, planted = marked_analysis
    names = [p["name"] for p in loads(log.raw)["players"]]
    game, ruleset, state = start(loads(log.raw))
    before = [state.snapshot()]
    events = loads(log.raw)["events"]
    state.apply_events(events, lambda index, live: before.append(live.snapshot()))

    page = browser.new_page()
    page.set_viewport_size(dict(zip(("width", "height"), WIDTHS[size], strict=True)))
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/games/{log.pk}/", wait_until="networkidle")
    page.wait_for_function("() => document.getElementById('viewer').dataset.ready === 'true'")
    page.wait_for_function(CHART_READY)

    # The chart sits in the replay, under the board.
    assert page.locator("#viewer #analysis-chart").count() == 1
    picture = page.locator("#viewer-picture").bounding_box()
    assert page.locator("#analysis-chart").bounding_box()["y"] >= picture["y"] + picture["height"]

    # Marks: one per stored decision the thresholds mark, in the engine's words, by name.
    for decision in analysis.decisions:
        item = page.locator(f"#decision-{decision['index']}")
        kind = expected_mark(decision)
        assert item.get_attribute("class") == (f"mark-{kind}" if kind else None)
        words = item.inner_text()
        played = game.describe(events[decision["index"]], before[decision["index"]], ruleset)
        assert f"{names[decision['seat']]}: {played}" in words
        if kind:
            assert kind in words
        # The better move is named only when it is better beyond playout noise.
        if decision["best"] != decision["played"] and decision["cost"] > 2 * decision["cost_se"]:
            better = game.describe(decision["best"], before[decision["index"]], ruleset)
            assert f"better: {better} ({floatformat(decision['best_win'], 2)})" in words
        else:
            assert "better:" not in words
    marks = {d["index"]: expected_mark(d) for d in analysis.decisions}
    assert [marks[index] for index in planted] == ["inaccuracy", "mistake", "blunder"]

    # Accuracy per player, from lichess's formula computed here.
    for seat, name in enumerate(names):
        scores = [
            lichess_accuracy(d["cost"] if d["cost"] > 2 * d["cost_se"] else 0.0)
            for d in analysis.decisions
            if d["seat"] == seat
        ]
        row = page.locator("#analysis-accuracy tbody tr", has_text=name)
        assert (
            row.locator("td").first.inner_text() == f"{floatformat(sum(scores) / len(scores), 1)}%"
        )

    # Clicking the blunder's point on the chart jumps the replay there and says why.
    blunder = next(d for d in analysis.decisions if d["index"] == planted[-1])
    x, y = page.evaluate(POINT_AT, [blunder["index"], blunder["shares"][blunder["seat"]]])
    page.mouse.click(x, y)
    page.wait_for_function(
        f"() => document.getElementById('viewer-slider').value === '{blunder['index']}'"
    )
    played = game.describe(events[blunder["index"]], before[blunder["index"]], ruleset)
    better = game.describe(blunder["best"], before[blunder["index"]], ruleset)
    page.wait_for_function(
        "() => document.querySelector('#analysis-moves li.current')?.id"
        f" === 'decision-{blunder['index']}'"
    )
    assert page.inner_text("#analysis-moment") == (
        f"{names[blunder['seat']]}: {played}: blunder, chances {floatformat(blunder['win'], 2)}."
        f" Better: {better} ({floatformat(blunder['best_win'], 2)})."
    )
    page.keyboard.press("ArrowRight")  # the viewer steps on; the highlight follows it
    page.wait_for_function(
        f"() => !document.getElementById('decision-{blunder['index']}')"
        ".classList.contains('current')"
    )

    # Players by name only, and nothing scrolls sideways.
    assert not re.search(r"\bseat \d", page.inner_text("#viewer"), re.IGNORECASE)
    overflow = page.evaluate(OVERFLOW)
    assert overflow["page"] <= overflow["window"], overflow["culprits"]
    page.screenshot(path=str(ARTIFACTS / f"analysis-in-the-replay-{size}.png"), full_page=True)
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
    game, ruleset, _ = start(loads(log.raw))
    snapshot = point.state.snapshot()
    assert sorted(rows) == sorted(game.describe(a, snapshot, ruleset) for a in point.actions)
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
