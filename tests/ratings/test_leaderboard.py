"""Leaderboards: established players ranked, provisional ones apart, filters, CSV, backtest."""

import csv
import io
from collections.abc import Iterator

import pytest
from django.db import transaction

from ratings.backtest import run_backtest
from ratings.services import game_records
from tests.ratings_support import eager_tasks, hours_ago, verified_game

REGULARS = ["ann", "bob", "cyd"]


@pytest.fixture(scope="module")
def played(django_db_setup, django_db_blocker) -> Iterator[None]:
    """Ann, Bob and Cyd play 10 games (established); Dan joins one (provisional). Played
    once for the module, inside a transaction rolled back at the end."""
    with django_db_blocker.unblock(), transaction.atomic(), eager_tasks():
        play_games()
        yield
        transaction.set_rollback(True)


def play_games() -> None:
    for index in range(10):
        verified_game(REGULARS, seed=100 + index, played_at=hours_ago(48 - index))
    verified_game(["ann", "dan"], seed=200, played_at=hours_ago(1))


@pytest.mark.django_db
def test_established_players_are_ranked_and_provisional_ones_listed_apart(client, played):
    page = client.get("/leaderboards/deep-vents/").content.decode()

    main, provisional = page.split("Provisional (fewer than 10 games)")
    for name in REGULARS:
        assert name in main
    assert "dan" in provisional and "dan" not in main


@pytest.mark.django_db
def test_csv_export_lists_every_rated_player_with_rating_games_and_win_rate(client, played):
    response = client.get("/leaderboards/deep-vents/?format=csv")

    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert response["Content-Type"].startswith("text/csv")
    assert {r["handle"] for r in rows} == {"ann", "bob", "cyd", "dan"}
    dan = next(r for r in rows if r["handle"] == "dan")
    assert (dan["games"], dan["provisional"], dan["position"]) == ("1", "yes", "")
    ann = next(r for r in rows if r["handle"] == "ann")
    assert ann["games"] == "11"
    assert float(ann["win_rate"]) == pytest.approx(int(ann["wins"]) / 11, abs=1e-3)


@pytest.mark.django_db
def test_tournament_only_filter_leaves_out_casual_games(client, played):
    response = client.get("/leaderboards/deep-vents/?games=tournament&format=csv")

    assert list(csv.DictReader(io.StringIO(response.content.decode()))) == []


def csv_rows(client, query: str) -> dict[str, dict[str, str]]:
    response = client.get(f"/leaderboards/deep-vents/?{query}&format=csv")
    return {r["handle"]: r for r in csv.DictReader(io.StringIO(response.content.decode()))}


@pytest.mark.django_db
def test_since_rates_only_the_games_played_from_that_date(client, played):
    # Only Ann and Dan's game (an hour ago) is on or after the date of two hours ago; the
    # regulars' ten games were all played at least 39 hours ago.
    rows = csv_rows(client, f"since={hours_ago(2).date().isoformat()}")

    assert set(rows) == {"ann", "dan"}
    assert rows["ann"]["games"] == rows["dan"]["games"] == "1"
    assert sorted([rows["ann"]["wins"], rows["dan"]["wins"]]) in (["0", "1"], ["1", "1"])


@pytest.mark.django_db
def test_until_rates_only_the_games_played_up_to_that_date(client, played):
    rows = csv_rows(client, f"until={hours_ago(30).date().isoformat()}")

    assert set(rows) == set(REGULARS)
    assert all(row["games"] == "10" for row in rows.values())


@pytest.mark.django_db
def test_a_date_range_shown_on_the_page_leaves_out_the_games_outside_it(client, played):
    since = hours_ago(2).date().isoformat()
    page = client.get(f"/leaderboards/deep-vents/?since={since}").content.decode()

    assert "ann" in page and "dan" in page
    assert "bob" not in page and "cyd" not in page


@pytest.mark.django_db
def test_rows_carry_a_trend_sparkline(client, played):
    page = client.get("/leaderboards/deep-vents/").content.decode()

    assert page.count('<svg class="sparkline"') == 3


def test_unknown_game_is_not_found(client, db):
    assert client.get("/leaderboards/chess/").status_code == 404


@pytest.mark.django_db
def test_backtest_page_compares_elo_and_openskill(client, played):
    page = client.get("/leaderboards/deep-vents/backtest/").content.decode()

    assert "Elo" in page and "OpenSkill" in page and "Log-loss" in page


@pytest.mark.django_db
def test_backtest_trains_on_the_earlier_games_and_scores_the_later(played):
    records = game_records("deep-vents")

    result = run_backtest(records)

    assert result.train_games + result.test_games == len(records) == 11
    assert result.test_games == 4
    for score in result.scores:
        assert score.games == 4
        assert 0 <= score.accuracy <= 1
        assert score.log_loss > 0
    assert [s.name for s in result.scores][:2] == ["Elo", "OpenSkill"]


def test_backtest_of_a_pair_that_always_wins_learns_to_favour_them():
    from datetime import UTC, datetime, timedelta

    from ratings.rater import GameRecord

    start = datetime(2026, 1, 1, tzinfo=UTC)
    records = [
        GameRecord(i, start + timedelta(hours=i), "human", {1: 1, 2: 2}, frozenset({1}))
        for i in range(40)
    ]

    elo, skill, chance = run_backtest(records).scores

    assert elo.accuracy == skill.accuracy == 1.0
    assert elo.log_loss < chance.log_loss and skill.log_loss < chance.log_loss


@pytest.mark.django_db
def test_the_leaderboard_shows_a_page_of_rows_and_ranks_on_across_pages(
    client, played, monkeypatch
):
    from ratings import leaderboard

    monkeypatch.setattr(leaderboard, "ROWS_PER_PAGE", 2)
    first = client.get("/leaderboards/deep-vents/").content.decode()
    second = client.get("/leaderboards/deep-vents/?page=2").content.decode()

    assert first.count("<tr><td") == 2 and "page=2" in first
    assert '<tr><td data-sort="3">3</td>' in second
    assert "Provisional (fewer than 10 games)" in second
    assert "dan" in second and "dan" not in first
    assert 'class="sparkline"' in second
