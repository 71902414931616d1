"""Rating bands: the rating-band filter of the statistics pages.

A seat's band is its player's Elo for the game type going into the game (ratings app,
issue 6), as rating the games one by one in their rating order gives it, however many are
verified together (issue 25); bots have their own band, players without a rating are
"unrated".
"""

from __future__ import annotations

from collections.abc import Iterable

from games.models import Game, GameSeat
from ratings.services import elo_going_into

BOT = "bot"
UNRATED = "unrated"
# Upper bounds (exclusive) and labels, lowest first; the last band is open-ended.
BANDS = ((1400, "<1400"), (1600, "1400-1599"), (1800, "1600-1799"), (None, "1800+"))
ALL_BANDS = (BOT, UNRATED, *(label for _, label in BANDS))


def band_of(rating: float | None) -> str:
    if rating is None:
        return UNRATED
    for upper, label in BANDS:
        if upper is None or rating < upper:
            return label
    raise AssertionError("the last band is open-ended")


def seat_bands(game: Game, seats: Iterable[GameSeat]) -> dict[int, str]:
    """Each seat's band (by seat number) in one game."""
    return group_bands([game], {game.pk: list(seats)})[game.pk]


def group_bands(
    games: list[Game], seats: dict[int, list[GameSeat]] | None = None
) -> dict[int, dict[int, str]]:
    """Each seat's band for many games (game id -> seat -> band), the ratings read in two
    queries for all of them (ratings.services.elo_going_into: for games not rated yet, as
    rating them one by one would leave them, so the same however many come together)."""
    if seats is None:
        seats = {game.pk: list(game.seats.all()) for game in games}
    elo = elo_going_into(games, seats)

    def band(game: Game, player_id: int | None) -> str:
        if player_id is None:
            return BOT
        return band_of(elo.get((game.pk, player_id)))

    return {
        game.pk: {seat.seat: band(game, seat.player_id) for seat in seats[game.pk]}
        for game in games
    }
