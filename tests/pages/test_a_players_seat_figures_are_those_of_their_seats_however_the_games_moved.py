"""A player's page reads its seat figures from the statistics' seat tally (issue 25), and
they stay what the player's game seats say, computed here from every seat: after games are
verified (their tally folded or not, or rebuilt), derived again by a reverify, set aside
(the game still listed, counted no more), deleted, and after a players' merge; the page's
HTML stays the same whether the tally's deltas are folded or not."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse

from games.models import GameSeat
from games.services import reverification
from games.services.removal import delete_log, set_aside_game
from games.services.reverification import reverify_log
from pages.services.profiles import seat_figures
from players.merge import merge_players
from players.models import Player
from stats.models import PlayerSeatTallyDelta
from stats.services.aggregate import fold_deltas, rebuild_all
from tests.ratings_support import hours_ago, verified_game

pytestmark = pytest.mark.django_db


def figures_from_seats(player: Player) -> dict[str, Any]:
    """seat_figures as the page computed them before the tally: every seat of the player
    counted, then its seats in games that count summed by turn order."""
    seats = list(GameSeat.objects.filter(player=player).select_related("game"))
    counted = [seat for seat in seats if seat.game.counts]
    bids = [seat.summary["bid"] for seat in counted if (seat.summary or {}).get("bid") is not None]
    by_turn: dict[int, list[GameSeat]] = {}
    for seat in counted:
        if (seat.summary or {}).get("turn") is not None:
            by_turn.setdefault(seat.summary["turn"], []).append(seat)
    return {
        "seat_count": len(seats),
        "average_bid": Decimal(sum(bids)) / len(bids) if bids else None,
        "seat_results": [
            {
                "turn_order": turn,
                "games": len(turned),
                "wins": sum(seat.winner for seat in turned),
                "average_rank": sum(seat.rank for seat in turned) / len(turned),
            }
            for turn, turned in sorted(by_turn.items())
        ],
    }


def each_as_its_seats_say() -> None:
    for player in Player.objects.all():
        assert seat_figures(player) == figures_from_seats(player), player.handle


@pytest.fixture
def games(db) -> list:
    return [
        verified_game(["ann", "bob", "cyd"], seed=51, played_at=hours_ago(6)),
        verified_game(["ann", "bob"], seed=52, played_at=hours_ago(5)),
        verified_game(["bob", "cyd", "dee", "ann"], seed=53, played_at=hours_ago(4)),
        verified_game(["annie", "cyd", "ann"], seed=54, played_at=hours_ago(3)),
        verified_game(["annie", "dee"], seed=55, played_at=hours_ago(2)),
    ]


def page_of(client, handle: str) -> bytes:
    """The player page's HTML, its nonces aside (new each request)."""
    content = client.get(reverse("players:detail", args=[handle])).content
    return re.sub(rb'nonce="[^"]*"', b"", content)


def test_the_figures_are_the_seats_folded_or_not_and_the_page_the_same(client, games):
    assert PlayerSeatTallyDelta.objects.exists()
    each_as_its_seats_say()
    before = page_of(client, "ann")
    assert b"Average starting bid" in before

    fold_deltas()
    each_as_its_seats_say()
    assert page_of(client, "ann") == before
    rebuild_all()
    assert page_of(client, "ann") == before


def test_the_figures_follow_a_reverify_a_game_set_aside_and_a_log_deleted(
    client, games, monkeypatch
):
    fold_deltas()
    # As if an engine fix changed the scores: the game is retracted and derived again.
    monkeypatch.setattr(reverification, "seat_results", lambda game: [])
    reverify_log(games[0].log_id)
    each_as_its_seats_say()
    set_aside_game(games[2].log)  # still on ann's list, counted no more
    each_as_its_seats_say()
    delete_log(games[1].log_id)
    each_as_its_seats_say()
    unfolded = page_of(client, "ann")
    fold_deltas()
    each_as_its_seats_say()
    assert page_of(client, "ann") == unfolded


def test_the_figures_follow_a_merge_folded_or_not(client, games):
    ann, annie = Player.objects.get(handle="ann"), Player.objects.get(handle="annie")
    fold_deltas()
    verified_game(["annie", "bob"], seed=56, played_at=hours_ago(1))  # a delta still
    every = figures_from_seats(ann)["seat_count"] + figures_from_seats(annie)["seat_count"]

    merge_players(ann, [annie])

    each_as_its_seats_say()
    assert seat_figures(ann)["seat_count"] == every
    fold_deltas()
    each_as_its_seats_say()
