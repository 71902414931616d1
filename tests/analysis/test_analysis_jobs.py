"""Analysis jobs (analysis/services/jobs.py): chunks, progress, reuse, staleness, the pages
that start and show them, and a player's costs by phase."""

import json

import pytest
from django.contrib.auth.models import User
from games_support import simulated_log, submit, text  # noqa: F401 (submit is a fixture)

from analysis.models import Analysis, AnalysisChunk
from analysis.services import board, jobs, review
from analysis.services.summary import player_costs
from engines.analysis import Budget, analyse_log, decision_points
from games.models import Game, GameLog
from games.services.reverification import reverify_log
from notices.models import Kind, Notice

pytestmark = pytest.mark.django_db

TINY = Budget(target_se=0.2, min_playouts=4, max_playouts=8, batch=4)


@pytest.fixture
def tiny_budget(settings):
    settings.ANALYSIS_BUDGET = TINY.to_json()
    settings.ANALYSIS_CHUNK_DECISIONS = 5
    return TINY


@pytest.fixture
def verified(submit):  # noqa: F811 (the fixture imported above)
    log = simulated_log("deep-sea-adventure", seed=3, players=3)
    for player in log["players"]:
        player.pop("strategy", None)
    log["players"] = [{"name": name} for name in ("Marina", "Nemo", "Coral")]
    stored = submit(text(log))
    assert stored.status == GameLog.Status.VERIFIED
    return stored, log


def run_analysis(log, django_capture_on_commit_callbacks, **kwargs):
    with django_capture_on_commit_callbacks(execute=True):
        analysis, created = jobs.request_analysis(log, **kwargs)
    analysis.refresh_from_db()
    return analysis, created


def test_an_analysis_is_split_into_interleaved_chunks_and_merged_in_event_order(
    verified, tiny_budget, django_capture_on_commit_callbacks
):
    log, parsed = verified
    analysis, created = run_analysis(log, django_capture_on_commit_callbacks)
    indices = [point.index for point in decision_points(parsed)]
    chunks = list(AnalysisChunk.objects.filter(analysis=analysis))
    assert created and analysis.status == Analysis.Status.DONE
    assert len(chunks) == -(-len(indices) // 5)
    assert chunks[0].indices == indices[:: len(chunks)]
    assert sorted(i for c in chunks for i in c.indices) == indices
    assert [d["index"] for d in analysis.decisions] == indices
    assert analysis.done == analysis.total == len(indices)
    # The same figures as the engine's own analysis of the whole log at once.
    direct = analyse_log(parsed, budget=TINY, seed=jobs.DEFAULT_SEED)
    assert analysis.decisions == [d.to_json() for d in direct]


def test_asking_again_for_the_same_engine_version_and_budget_reuses_the_analysis(
    verified, tiny_budget, django_capture_on_commit_callbacks
):
    log, _ = verified
    first, _ = run_analysis(log, django_capture_on_commit_callbacks)
    again, created = run_analysis(log, django_capture_on_commit_callbacks)
    assert not created and again.pk == first.pk
    other_budget = Budget(target_se=0.25, min_playouts=4, max_playouts=8, batch=4)
    other, created = run_analysis(log, django_capture_on_commit_callbacks, budget=other_budget)
    assert created and other.pk != first.pk
    assert Analysis.objects.count() == 2


def test_a_reverify_that_retracts_the_game_marks_its_analyses_stale(
    verified, tiny_budget, django_capture_on_commit_callbacks
):
    log, _ = verified
    analysis, _ = run_analysis(log, django_capture_on_commit_callbacks)
    assert not analysis.is_stale
    # As if an engine fix changed the scores: the stored game no longer matches replay.
    seat = log.game.seats.get(seat=0)
    seat.score += 1
    seat.save()
    assert reverify_log(log.pk) is not None
    analysis.refresh_from_db()
    assert analysis.is_stale
    fresh, created = run_analysis(log, django_capture_on_commit_callbacks)
    assert created and fresh.pk == analysis.pk and not fresh.is_stale  # analysed again


def test_an_analysis_of_another_engine_version_is_stale(verified, tiny_budget, monkeypatch):
    log, _ = verified
    analysis = Analysis(log=log, game_type=log.game_type, engine_version="0123456789ab")
    assert analysis.is_stale


def test_only_verified_games_are_analysed(verified, tiny_budget):
    log, _ = verified
    log.status = GameLog.Status.REJECTED
    with pytest.raises(jobs.AnalysisRefused, match="only verified games"):
        jobs.request_analysis(log)
    assert not Analysis.objects.exists()


def test_a_log_that_cannot_be_analysed_is_refused_in_words_without_its_number(
    client, verified, tiny_budget
):
    log, _ = verified
    GameLog.objects.filter(pk=log.pk).update(status=GameLog.Status.REJECTED)
    client.force_login(User.objects.create_user("analyst", is_staff=True))

    response = client.post(f"/games/{log.pk}/analysis/start/")
    page = response.content.decode()

    assert response.status_code == 409
    assert "<h1>Cannot analyse this game</h1>" in page
    assert "this log is rejected: only verified games are analysed" in page
    assert f"log {log.pk}" not in page


def test_the_biggest_mistakes_are_the_marked_moves_costliest_first():
    moves = [
        {"index": 3, "drop": 0.1, "mark": "mistake"},
        {"index": 5, "drop": 0.0, "mark": None},
        {"index": 7, "drop": 0.3, "mark": "blunder"},
        {"index": 9, "drop": 0.1, "mark": "mistake"},
        {"index": 11, "drop": 0.04, "mark": None},
    ]
    assert [m["index"] for m in review.biggest_mistakes(moves)] == [7, 3, 9]


def test_the_game_page_offers_analyse_and_then_shows_chart_data_and_mistakes(
    client, verified, tiny_budget, django_capture_on_commit_callbacks
):
    log, _ = verified
    page = client.get(f"/games/{log.pk}/")
    assert b"Sign in</a> to analyse" in page.content
    client.force_login(User.objects.create_user("analyst"))
    assert b">Analyse</button>" in client.get(f"/games/{log.pk}/").content
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(f"/games/{log.pk}/analysis/start/")
    assert started.status_code == 302
    analysis = Analysis.objects.get()
    page = client.get(f"/games/{log.pk}/").content.decode()
    assert 'id="analysis-figure"' in page and 'id="analysis-mistakes"' in page
    worst = review.result_context(log, analysis)["mistakes"]
    if worst:
        assert f"#event-{worst[0]['index']}" in page
    status = client.get(f"/games/{log.pk}/analysis/status.json").json()
    assert status["status"] == "done" and status["done"] == status["total"] == analysis.total


def test_starting_an_analysis_needs_a_login_and_a_post(client, verified, tiny_budget):
    log, _ = verified
    assert client.post(f"/games/{log.pk}/analysis/start/").status_code == 302  # to the login
    client.force_login(User.objects.create_user("analyst"))
    assert client.get(f"/games/{log.pk}/analysis/start/").status_code == 405
    assert not Analysis.objects.exists()


def test_the_board_evaluates_every_alternative_of_a_moment(
    client, verified, tiny_budget, django_capture_on_commit_callbacks
):
    log, parsed = verified
    client.force_login(User.objects.create_user("analyst"))
    point = next(decision_points(parsed))
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/games/{log.pk}/board/", {"event": point.index - 1})
    assert answer.status_code == 202
    done = client.get(f"/games/{log.pk}/board/{answer.json()['board']}.json").json()
    assert done["status"] == "done" and done["done"] == done["total"] == len(point.actions)
    # Compared as sorted JSON: PostgreSQL's jsonb keeps an object's keys in its own order.
    assert sorted(json.dumps(e["action"], sort_keys=True) for e in done["estimates"]) == sorted(
        json.dumps(a, sort_keys=True) for a in point.actions
    )
    # The same seed as the analysis: the played move's figure agrees with it.
    (analysed,) = analyse_log(parsed, budget=TINY, seed="0", indices={point.index})
    board_played = next(e for e in done["estimates"] if e["action"] == point.played)
    assert board_played["win"] == analysed.played_estimate.to_json()["win"]


def test_the_board_refuses_a_moment_followed_by_dice_naming_the_event(
    client, verified, tiny_budget
):
    log, parsed = verified
    client.force_login(User.objects.create_user("analyst"))
    roll = next(i for i, e in enumerate(parsed["events"]) if e["type"] == "roll")
    answer = client.post(f"/games/{log.pk}/board/", {"event": roll - 1})
    assert answer.status_code == 400
    assert f"after event {roll - 1} comes a chance event" in answer.json()["error"]["text"]
    bad = client.post(f"/games/{log.pk}/board/", {"event": "x"})
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "event"
    with pytest.raises(jobs.AnalysisRefused, match="event must be -1"):
        board.position_after(parsed, 10_000)


def test_a_players_average_cost_is_taken_over_their_decisions_by_phase(
    verified, tiny_budget, django_capture_on_commit_callbacks
):
    log, _ = verified
    analysis, _ = run_analysis(log, django_capture_on_commit_callbacks)
    seat = log.game.seats.get(seat=1)
    rows = player_costs(seat.player)
    mine = [d for d in analysis.decisions if d["seat"] == 1]
    assert sum(r["decisions"] for r in rows) == len(mine)
    for row in rows:
        costs = [d["cost"] for d in mine if d["phase"] == row["phase"]]
        assert row["average_cost"] == pytest.approx(sum(costs) / len(costs))


def test_the_player_page_shows_costs_by_phase_once_a_game_is_analysed(
    client, verified, tiny_budget, django_capture_on_commit_callbacks
):
    log, _ = verified
    player = log.game.seats.get(seat=1).player
    assert b"Decisions in analysed games" not in client.get(f"/players/{player.handle}/").content
    run_analysis(log, django_capture_on_commit_callbacks)
    page = client.get(f"/players/{player.handle}/").content.decode()
    assert "Decisions in analysed games" in page
    for row in player_costs(player):
        assert f"<td>{row['phase']}</td><td>{row['decisions']}</td>" in page


def test_the_analysis_ready_notice_names_the_game_in_words_not_its_log_id(
    submit,  # noqa: F811 (the fixture imported above)
    tiny_budget,
    django_capture_on_commit_callbacks,
):
    log = simulated_log("deep-sea-adventure", seed=3, players=3)
    log["players"] = [{"name": name} for name in ("Marina", "Nemo", "Coral")]
    submitter = User.objects.create_user("scorer", is_staff=True)
    stored = submit(text(log), user=submitter)
    played = Game.objects.get(log=stored).played_at

    run_analysis(stored, django_capture_on_commit_callbacks)

    [notice] = Notice.objects.filter(user=submitter, kind=Kind.ANALYSIS)
    assert notice.subject == (
        f"Analysis ready: Deep Sea Adventure, {played:%-d %b %Y}: Marina, Nemo, Coral"
    )
