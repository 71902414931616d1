"""Rating bands: the rating-band filter of the statistics pages.

A seat's band is its player's Elo for the game type going into the game (ratings app,
issue 6); bots have their own band, players without a rating are "unrated".
"""

from __future__ import annotations

from collections.abc import Iterable

from django.apps import apps

from games.models import Game, GameSeat

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
    """Each seat's band (by seat number), with the players' ratings read in one or two
    queries for the whole game."""
    seats = list(seats)
    players = {seat.player_id for seat in seats if seat.player_id is not None}
    ratings = ratings_before(game, players) if players else {}
    return {
        seat.seat: BOT if seat.player_id is None else band_of(ratings.get(seat.player_id))
        for seat in seats
    }


def ratings_before(game: Game, player_ids: set[int]) -> dict[int, float]:
    """Each player's Elo going into this game: the ratings app's record of the game when it
    has rated it already (also on rebuilds), else the current rating, not yet moved by it.
    Players without either are left out (unrated)."""
    if not apps.is_installed("ratings"):
        return {}
    rating_change = apps.get_model("ratings", "RatingChange")
    rating = apps.get_model("ratings", "Rating")
    before = dict(
        rating_change.objects.filter(game_id=game.pk, player_id__in=player_ids).values_list(
            "player_id", "elo_before"
        )
    )
    unrated = player_ids - before.keys()
    if unrated:
        before.update(
            rating.objects.filter(player_id__in=unrated, game_type=game.game_type).values_list(
                "player_id", "rating"
            )
        )
    return before
