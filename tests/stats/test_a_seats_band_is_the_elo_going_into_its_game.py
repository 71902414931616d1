"""The statistics' rating band of a seat is its player's Elo going into the game, which
stats ask the ratings app for (ratings.services.elo_going_into); a game not rated yet falls
back on the player's current rating, and a player with neither is unrated: in their first
game, whether it is rated yet or not, so that a reverification or a rebuild from the facts
bands it as its verification did."""

import pytest
from ratings_support import DEEP_VENTS, hours_ago, verified_game

from ratings.models import Rating, RatingChange
from stats.models import SeatLines
from stats.services import seat_packing
from stats.services.aggregate import rebuild_all
from stats.services.bands import UNRATED, seat_bands

pytestmark = pytest.mark.django_db


@pytest.fixture
def played_before():
    """A game ann, bob and cy played a day ago: the games below are not their first."""
    return verified_game(["ann", "bob", "cy"], seed=0, played_at=hours_ago(24))


def bands_by_handle(game) -> dict[str, str]:
    seats = list(game.seats.select_related("player"))
    bands = seat_bands(game, seats)
    return {seat.player.handle: bands[seat.seat] for seat in seats}


def test_a_rated_game_bands_its_seats_by_the_elo_going_into_it_not_the_current_one(
    played_before,
):
    game = verified_game(["ann", "bob", "cy"], seed=1)
    going_in = RatingChange.objects.get(game=game, player__handle="ann").elo_before
    Rating.objects.filter(game_type=DEEP_VENTS, player__handle="ann").update(rating=1900)

    assert going_in < 1600
    assert bands_by_handle(game)["ann"] == "1400-1599"


@pytest.mark.parametrize(
    ("before", "after", "band"),
    [(1590.0, 1610.0, "1400-1599"), (1610.0, 1590.0, "1600-1799"), (1799.5, 1800.5, "1600-1799")],
)
def test_a_game_that_moves_a_player_across_a_band_bands_them_by_the_elo_before_it(
    before, after, band, played_before
):
    """One game's own change crosses a band's edge: its Elo after the game (and the current
    rating, a third band) would put the seat in another band than the Elo going into it."""
    game = verified_game(["ann", "bob", "cy"], seed=1)
    RatingChange.objects.filter(game=game, player__handle="ann").update(
        elo_before=before, elo_after=after
    )
    Rating.objects.filter(game_type=DEEP_VENTS, player__handle="ann").update(rating=1300)

    assert bands_by_handle(game)["ann"] == band


def test_of_two_games_each_bands_by_the_elo_going_into_it(played_before):
    first = verified_game(["ann", "bob", "cy"], seed=1, played_at=hours_ago(2))
    second = verified_game(["ann", "bob", "cy"], seed=2, played_at=hours_ago(1))
    RatingChange.objects.filter(game=first, player__handle="ann").update(
        elo_before=1390.0, elo_after=1410.0
    )
    RatingChange.objects.filter(game=second, player__handle="ann").update(
        elo_before=1410.0, elo_after=1620.0
    )

    assert bands_by_handle(first)["ann"] == "<1400"
    assert bands_by_handle(second)["ann"] == "1400-1599"


def test_a_game_not_rated_yet_bands_by_the_current_rating_and_a_newcomer_is_unrated():
    game = verified_game(["ann", "bob", "cy"], seed=1)
    RatingChange.objects.filter(game=game).delete()
    Rating.objects.filter(game_type=DEEP_VENTS, player__handle="ann").update(rating=1900)
    Rating.objects.filter(game_type=DEEP_VENTS, player__handle="bob").delete()

    bands = bands_by_handle(game)

    assert bands["ann"] == "1800+"
    assert bands["bob"] == UNRATED


def stored_bands(game) -> list[str]:
    lines = SeatLines.objects.get(game=game)
    return [seat.band for seat in seat_packing.unpack(game.pk, lines.month, lines.packed)[0]]


def test_a_newcomers_first_game_stays_unrated_once_rated_and_rebuilt_from_its_facts():
    first = verified_game(["ann", "bob", "cy"], seed=1, played_at=hours_ago(2))
    second = verified_game(["ann", "bob", "cy"], seed=2, played_at=hours_ago(1))
    recorded = RatingChange.objects.get(game=first, player__handle="ann").elo_before
    verified = stored_bands(first), stored_bands(second)

    rebuild_all(from_facts=True)

    assert recorded == 1500.0  # the rater's start: 1400-1599 if it were read as a band
    assert bands_by_handle(first) == {"ann": UNRATED, "bob": UNRATED, "cy": UNRATED}
    assert verified[0] == [UNRATED] * 3
    assert (stored_bands(first), stored_bands(second)) == verified
    assert UNRATED not in verified[1]
