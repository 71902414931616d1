"""Rating bands: the rating-band filter of the statistics pages.

A seat's band is its player's Elo for the game type going into the game (ratings app,
issue 6); bots have their own band, players without a rating are "unrated".
"""

from __future__ import annotations

from django.apps import apps

from games.models import GameSeat

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


def seat_band(seat: GameSeat) -> str:
    if seat.player_id is None:
        return BOT
    return band_of(rating_before(seat))


def rating_before(seat: GameSeat) -> float | None:
    """The player's Elo going into this game: the ratings app's record of the game when it
    has rated it already (also on rebuilds), else the current rating, not yet moved by it."""
    if not apps.is_installed("ratings"):
        return None
    rating_change = apps.get_model("ratings", "RatingChange")
    rating = apps.get_model("ratings", "Rating")
    before = (
        rating_change.objects.filter(game_id=seat.game_id, player_id=seat.player_id)
        .values_list("elo_before", flat=True)
        .first()
    )
    if before is not None:
        return before
    return (
        rating.objects.filter(player_id=seat.player_id, game_type=seat.game.game_type)
        .values_list("rating", flat=True)
        .first()
    )
