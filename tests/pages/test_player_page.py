"""A player's page: rating chart, games, tournaments, average bid, seats, favourite hexes."""

from html import unescape

import pytest

from games.models import GameSeat
from players.models import Player
from stats.services.hexes import hex_names
from tests.ratings_support import hours_ago, verified_game


@pytest.fixture
def ann(db) -> Player:
    verified_game(["ann", "bob", "cyd"], seed=21, played_at=hours_ago(3))
    verified_game(["ann", "bob"], seed=22, played_at=hours_ago(2))
    return Player.objects.get(handle="ann")


def test_player_page_draws_the_rating_history_with_local_plotly(client, ann):
    page = client.get("/players/ann/").content.decode()

    assert 'id="rating-history"' in page
    assert "/static/plotly/plotly-cartesian.min.js" in page
    assert "https://" not in page


def test_player_page_lists_games_and_average_bid(client, ann):
    seats = list(GameSeat.objects.filter(player=ann).select_related("game"))
    bids = [s.summary["bid"] for s in seats if "bid" in (s.summary or {})]
    average = f"{sum(bids) / len(bids):.2f}" if bids else "\u2013"

    page = client.get("/players/ann/").content.decode()

    assert f"Average starting bid: {average}" in page
    for seat in seats:
        assert f"{seat.rank} of {seat.game.player_count}" in page


def hexes_taken_by(player: Player) -> dict[str, int]:
    """How often the player took each hex, counted from their seats' "take" facts."""
    taken: dict[str, int] = {}
    for seat in GameSeat.objects.filter(player=player).select_related("game"):
        for fact in seat.game.facts:
            if fact["type"] == "take" and fact["seat"] == seat.seat:
                taken[fact["hex"]] = taken.get(fact["hex"], 0) + 1
    return taken


def test_favourite_hexes_are_the_ones_taken_most(client, ann):
    taken = hexes_taken_by(ann)
    top = max(taken, key=taken.get)
    name = hex_names()[top]

    page = client.get("/players/ann/").content.decode()

    assert f"{name} ({taken[top]}\u00d7)" in page


def test_favourite_hexes_count_only_the_players_own_takes_in_order(client, ann):
    names = hex_names()
    by_count = sorted(hexes_taken_by(ann).items(), key=lambda item: (-item[1], item[0]))
    expected = [(names[hex_id], times) for hex_id, times in by_count[:5]]

    assert client.get("/players/ann/").context["favourite_hexes"] == expected


def test_seat_results_count_games_by_turn_order(client, ann):
    response = client.get("/players/ann/")

    results = response.context["seat_results"]
    assert sum(r["games"] for r in results) == 2


def test_unknown_player_is_not_found(client, db):
    assert client.get("/players/nobody/").status_code == 404


def test_the_rating_chart_has_elo_and_openskill_on_titled_axes(client, ann):
    page = client.get("/players/ann/").content.decode()
    # The page pictures the chart; its figure comes from the URL in the div (common/charts.py).
    chart = unescape(page[page.index('id="rating-history"') :])
    figure = client.get("/players/ann/ratings.json").json()

    assert 'data-figure-src="/players/ann/ratings.json"' in chart
    assert ">Deep Vents Elo<" in chart and ">Deep Vents OpenSkill<" in chart
    assert [trace["name"] for trace in figure["data"]] == ["Deep Vents Elo", "Deep Vents OpenSkill"]
    assert figure["data"][1]["yaxis"] == "y2"
    assert figure["layout"]["yaxis"]["title"]["text"] == "Elo (points)"
    assert figure["layout"]["xaxis"]["title"]["text"] == "Date played"


def test_the_games_list_shows_a_page_of_games_newest_first_with_links(client, ann, monkeypatch):
    from pages.services import profiles

    monkeypatch.setattr(profiles, "GAMES_PER_PAGE", 1)
    seats = list(
        GameSeat.objects.filter(player=ann).order_by("-game__played_at").select_related("game")
    )

    first = client.get("/players/ann/")
    second = client.get("/players/ann/", {"page": 2})

    assert [s.pk for s in first.context["seats"]] == [seats[0].pk]
    assert [s.pk for s in second.context["seats"]] == [seats[1].pk]
    assert "page=2" in first.content.decode()


def test_the_player_page_costs_the_same_queries_however_many_games(client, ann):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as two_games:
        client.get("/players/ann/")
    verified_game(["ann", "cyd"], seed=23, played_at=hours_ago(1))
    verified_game(["bob", "ann", "cyd"], seed=24, played_at=hours_ago(0.5))
    with CaptureQueriesContext(connection) as four_games:
        page = client.get("/players/ann/").content.decode()

    assert len(four_games) == len(two_games)
    assert '"games_game"."facts"' not in " ".join(q["sql"] for q in four_games)
    assert page.count(" of 3</td>") + page.count(" of 2</td>") == 4
