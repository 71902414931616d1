"""A player's seat figures (pages.services.profiles.seat_figures) are summed from the
player's seats alone, leaving out those whose game does not count by asking the few
uncounted games (issue 25): they are the figures recounted from every seat and its game."""

from decimal import Decimal
from statistics import mean

import pytest

from games.models import Game, GameSeat
from pages.services.profiles import seat_figures
from players.models import Player
from tests.ratings_support import hours_ago, verified_game

pytestmark = pytest.mark.django_db


def recounted(player: Player) -> dict:
    seats = list(GameSeat.objects.filter(player=player).select_related("game"))
    counted = [seat for seat in seats if seat.game.counts]
    bids = [seat.summary["bid"] for seat in counted if "bid" in (seat.summary or {})]
    orders = sorted({seat.summary["turn"] for seat in counted if seat.summary})
    by_order = {
        order: [seat for seat in counted if seat.summary and seat.summary["turn"] == order]
        for order in orders
    }
    return {
        "seat_count": len(seats),
        "average_bid": Decimal(sum(bids)) / len(bids) if bids else None,
        "seat_results": [
            {
                "turn_order": order,
                "games": len(seated),
                "wins": sum(seat.winner for seat in seated),
                "average_rank": mean(seat.rank for seat in seated),
            }
            for order, seated in by_order.items()
        ],
    }


def test_a_players_seat_figures_leave_out_only_the_games_that_do_not_count():
    games = [
        verified_game(["ann", "bob", "cyd"][: 2 + n % 2], seed=40 + n, played_at=hours_ago(9 - n))
        for n in range(6)
    ]
    ann = Player.objects.get(handle="ann")
    before = seat_figures(ann)
    Game.objects.filter(pk__in=[games[1].pk, games[4].pk]).update(counts=False)

    after = seat_figures(ann)

    assert after == recounted(ann)
    assert after["seat_count"] == before["seat_count"] == 6
    assert sum(row["games"] for row in after["seat_results"]) == 4
