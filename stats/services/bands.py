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
    """Each seat's band (by seat number) in one game."""
    return group_bands([game], {game.pk: list(seats)})[game.pk]


def group_bands(
    games: list[Game], seats: dict[int, list[GameSeat]] | None = None
) -> dict[int, dict[int, str]]:
    """Each seat's band for many games (game id -> seat -> band), the ratings read in two
    queries for all of them: each player's Elo going into the game as the ratings app
    recorded it (also on rebuilds), else the current rating, not yet moved by the game."""
    if seats is None:
        seats = {game.pk: list(game.seats.all()) for game in games}
    players = {seat.player_id for rows in seats.values() for seat in rows} - {None}
    before: dict[tuple[int, int], float] = {}
    current: dict[tuple[str, int], float] = {}
    if players and apps.is_installed("ratings"):
        rating_change = apps.get_model("ratings", "RatingChange")
        rating = apps.get_model("ratings", "Rating")
        before = {
            (game_id, player_id): elo
            for game_id, player_id, elo in rating_change.objects.filter(
                game_id__in=list(seats), player_id__in=players
            ).values_list("game_id", "player_id", "elo_before")
        }
        current = {
            (game_type, player_id): elo
            for game_type, player_id, elo in rating.objects.filter(
                player_id__in=players, game_type__in={game.game_type for game in games}
            ).values_list("game_type", "player_id", "rating")
        }

    def band(game: Game, player_id: int | None) -> str:
        if player_id is None:
            return BOT
        elo = before.get((game.pk, player_id))
        return band_of(elo if elo is not None else current.get((game.game_type, player_id)))

    return {
        game.pk: {seat.seat: band(game, seat.player_id) for seat in seats[game.pk]}
        for game in games
    }
