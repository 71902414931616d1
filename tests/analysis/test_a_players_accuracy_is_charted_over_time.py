"""A player's page charts their accuracy in each analysed game by the date it was played
(issue 24), a line per game, beside the table; the points are computed here again from the
stored decisions with lichess's formula."""

import json
import math
from html import unescape

import pytest
from games_support import simulated_log, submit, text  # noqa: F401 (submit is a fixture)

from analysis.models import Analysis
from analysis.services import jobs
from engines.analysis import Budget

TINY = Budget(target_se=0.2, min_playouts=4, max_playouts=8, batch=4)
NAMES = ("Marina", "Nemo", "Coral")


def lichess_accuracy(drop: float) -> float:
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * (drop * 100)) - 3.1669))


def analysed_game(submit, capture, seed: int, played: str):  # noqa: F811 (the fixture)
    log = simulated_log("deep-sea-adventure", seed=seed, players=3)
    log["players"] = [{"name": name} for name in NAMES]
    log["meta"] = {"played_at": played}
    stored = submit(text(log))
    with capture(execute=True):
        jobs.request_analysis(stored)
    return stored


def accuracy_of(stored, seat: int) -> float:
    decisions = Analysis.objects.get(log=stored).decisions
    scores = [
        lichess_accuracy(d["cost"] if d["cost"] > 2 * d["cost_se"] else 0.0)
        for d in decisions
        if d["seat"] == seat
    ]
    return sum(scores) / len(scores)


def chart_on(page: str) -> dict:
    start = page.index('id="accuracy-history"')
    attribute = 'data-plotly-figure="'
    begin = page.index(attribute, start) + len(attribute)
    return json.loads(unescape(page[begin : page.index('"', begin)]))


@pytest.mark.django_db
def test_two_analysed_games_draw_the_players_accuracy_by_date_played(
    client,
    submit,  # noqa: F811 (the fixture imported above)
    settings,
    django_capture_on_commit_callbacks,
):
    settings.ANALYSIS_BUDGET = TINY.to_json()
    later = analysed_game(
        submit, django_capture_on_commit_callbacks, 3, "2026-11-20T19:00:00+00:00"
    )
    player = later.game.seats.get(seat=1).player
    page = client.get(f"/players/{player.handle}/").content.decode()
    assert 'id="accuracy-by-game"' in page and 'id="accuracy-history"' not in page  # one game

    earlier = analysed_game(
        submit, django_capture_on_commit_callbacks, 4, "2026-11-02T19:00:00+00:00"
    )
    page = client.get(f"/players/{player.handle}/").content.decode()
    (line,) = chart_on(page)["data"]
    assert line["name"] == "Deep Sea Adventure"
    assert [x[:10] for x in line["x"]] == ["2026-11-02", "2026-11-20"]
    assert line["y"] == [round(accuracy_of(earlier, 1), 1), round(accuracy_of(later, 1), 1)]
