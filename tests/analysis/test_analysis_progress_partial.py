"""A running analysis's progress is an htmx partial (templates/analysis/_progress.html)
polled by its page, which reloads once the analysis has ended (issue 16: no hand-written
pollers)."""

import pytest
from games_support import simulated_log, submit, text  # noqa: F401 (submit is a fixture)

from analysis.models import Analysis
from analysis.services import jobs
from engines.analysis import Budget
from games.models import GameLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(submit, settings):  # noqa: F811 (the fixture imported above)
    settings.ANALYSIS_BUDGET = Budget(
        target_se=0.2, min_playouts=4, max_playouts=8, batch=4
    ).to_json()
    log = simulated_log("deep-sea-adventure", seed=3, players=3)
    log["players"] = [{"name": name} for name in ("Marina", "Nemo", "Coral")]
    stored = submit(text(log))
    assert stored.status == GameLog.Status.VERIFIED
    analysis, _ = jobs.request_analysis(stored)  # its chunks wait for the commit: running
    return stored, analysis


def test_the_game_page_of_a_running_analysis_polls_its_progress_partial(client, running):
    log, analysis = running
    page = client.get(f"/games/{log.pk}/").content.decode()

    assert f'hx-get="/games/{log.pk}/analysis/progress/"' in page
    assert 'hx-trigger="every 2s"' in page
    assert "htmx" in page and "<script src=" in page
    assert f"0 of {analysis.total} decisions" in page


def test_the_progress_partial_shows_the_decisions_done_so_far(client, running):
    log, analysis = running
    Analysis.objects.filter(pk=analysis.pk).update(done=2)

    answer = client.get(f"/games/{log.pk}/analysis/progress/", HTTP_HX_REQUEST="true")

    assert answer.status_code == 200 and "HX-Refresh" not in answer.headers
    body = answer.content.decode()
    assert 'id="analysis-running"' in body
    assert 'value="2"' in body and f"2 of {analysis.total} decisions" in body


def test_an_ended_analysis_asks_its_page_to_reload(client, running):
    log, analysis = running
    Analysis.objects.filter(pk=analysis.pk).update(status=Analysis.Status.DONE)

    answer = client.get(f"/games/{log.pk}/analysis/progress/", HTTP_HX_REQUEST="true")

    assert answer.headers["HX-Refresh"] == "true"
    assert 'hx-get="' not in client.get(f"/games/{log.pk}/").content.decode()


def test_the_progress_of_a_game_never_analysed_is_a_404(client, submit):  # noqa: F811
    stored = submit(text(simulated_log("deep-sea-adventure", seed=4, players=3)))

    assert client.get(f"/games/{stored.pk}/analysis/progress/").status_code == 404
