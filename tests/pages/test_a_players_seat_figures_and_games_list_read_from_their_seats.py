"""A player's page: the seat figures (over games that count) and the games list (newest
first, page by page, a player seated twice in a game split across pages) match what their
seats say, computed here from every seat without the page's queries (issue 25)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from games.models import Game, GameSeat, Source, Upload
from pages.services.profiles import GAMES_PER_PAGE, games_page, seat_figures
from players.models import Player
from tests.games_support import stored_game
from tests.stats_support import counted_in_statistics

pytestmark = pytest.mark.django_db

TWICE = GAMES_PER_PAGE - 1  # the game where ann sits twice: its seats end page 1, start page 2


@pytest.fixture
def ann() -> Player:
    """Ann's games: one an hour back from now, two pairs played at the same moment, one
    where she sits twice (seats 0 and 2, straddling pages 1 and 2), some that do not count,
    some whose seats summarise nothing."""
    upload = Upload.objects.create(filename="seats", source=Source.HUMAN)
    ann = Player.objects.create(handle="ann", display_name="Ann")
    bob = Player.objects.create(handle="bob", display_name="Bob")
    now = timezone.now().replace(microsecond=0)
    stored = []
    for number in range(2 * GAMES_PER_PAGE + 7):
        hours = number - (number in (10, 30))  # games 9 and 10, 29 and 30 at once
        played_at = now - datetime.timedelta(hours=hours)
        game = stored_game(upload, number, played_at, player_count=3, counts=number % 7 != 3)
        stored.append(game)
        sitting = [ann, bob, ann if number == TWICE else bob]
        for seat, player in enumerate(sitting):
            GameSeat.objects.create(
                game=game,
                seat=seat,
                player=player,
                name=player.display_name,
                score=seat,
                rank=1 + (number + seat) % 3,
                winner=(number + seat) % 3 == 0,
                summary=None
                if number % 5 == 4
                else {"turn": 1 + (number + seat) % 3, "bid": number % 4},
            )
    counted_in_statistics([game for game in stored if game.counts])
    return ann


def seats_of(player: Player) -> list[GameSeat]:
    """Every seat of the player, newest game first (game id breaking ties), by seat."""
    seats = list(GameSeat.objects.filter(player=player).select_related("game"))
    seats.sort(key=lambda seat: seat.seat)
    seats.sort(key=lambda seat: (seat.game.played_at, seat.game_id), reverse=True)
    return seats


def test_the_seat_figures_count_the_seats_of_games_that_count_by_turn_order(ann):
    seats = seats_of(ann)
    counted = [seat for seat in seats if seat.game.counts]
    bids = [seat.summary["bid"] for seat in counted if seat.summary]
    by_turn: dict[int, list[GameSeat]] = {}
    for seat in counted:
        if seat.summary:
            by_turn.setdefault(seat.summary["turn"], []).append(seat)

    figures = seat_figures(ann)

    assert figures["seat_count"] == len(seats)
    assert figures["average_bid"] == Decimal(sum(bids)) / len(bids)
    assert figures["seat_results"] == [
        {
            "turn_order": turn,
            "games": len(turned),
            "wins": sum(seat.winner for seat in turned),
            "average_rank": pytest.approx(sum(seat.rank for seat in turned) / len(turned)),
        }
        for turn, turned in sorted(by_turn.items())
    ]
    assert len(counted) < len(seats)  # some games do not count


def test_a_player_without_seats_has_no_figures(db):
    nobody = Player.objects.create(handle="nobody", display_name="Nobody")

    assert seat_figures(nobody) == {"seat_count": 0, "average_bid": None, "seat_results": []}
    assert list(games_page(nobody, 0, None)) == []


def listed(player: Player, page: str | None) -> tuple[int, list[tuple[int, int]]]:
    shown = games_page(player, seat_figures(player)["seat_count"], page)
    return shown.number, [(seat.game_id, seat.seat) for seat in shown]


def test_the_games_list_pages_through_every_seat_newest_first(ann):
    wanted = [(seat.game_id, seat.seat) for seat in seats_of(ann)]
    pages = [wanted[at : at + GAMES_PER_PAGE] for at in range(0, len(wanted), GAMES_PER_PAGE)]

    assert len(pages) == 3
    assert listed(ann, None) == (1, pages[0])
    assert listed(ann, "2") == (2, pages[1])
    assert listed(ann, "3") == (3, pages[2])
    # Out of range or not a number: the last page, or the first, as Paginator.get_page does.
    assert listed(ann, "4") == (3, pages[2])
    assert listed(ann, "x") == (1, pages[0])
    # The game with two of ann's seats ends page 1 with one and starts page 2 with the other.
    twice = Game.objects.get(log__sha256=f"{TWICE:064x}").pk
    assert pages[0][-1] == (twice, 0) and pages[1][0] == (twice, 2)


def test_the_games_list_gives_each_seat_its_game_and_confirmation_state(ann):
    shown = games_page(ann, seat_figures(ann)["seat_count"], "2")

    for seat in shown:
        assert seat.game.pk == seat.game_id
        assert (seat.confirmation == "counts") == seat.game.counts
        assert seat.place == f"{seat.rank} of 3"
