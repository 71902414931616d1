"""The fair starting bid (DV-3): a logistic fit of the first player's wins against the winning
bid, crossing par, with a bootstrap interval, always inside the legal bids."""

import math

import numpy as np
import pytest

from stats.adapters import adapter_for
from stats.services.fair_bid import (
    MIN_GAMES,
    BidPoint,
    fair_bids,
    fit_counts,
    fit_logistic,
)
from stats.services.fair_bid import estimate as estimate_with_limit

# The legal bids of Deep Vents, as its statistics adapter reads them from the editions (DV-3).
legal_high = adapter_for("deep-vents").bid_limit


def estimate(players: int, points: list[BidPoint]):
    return estimate_with_limit(players, points, legal_high(players))


def exact_points(players: int, fair: float, slope: float, games: float) -> list[BidPoint]:
    """Games whose wins follow a known logistic curve exactly, crossing par at `fair`."""
    par = 1 / players
    intercept = math.log(par / (1 - par)) - slope * fair
    return [
        BidPoint(players, bid, games, games / (1 + math.exp(-(intercept + slope * bid))))
        for bid in range(legal_high(players) + 1)
    ]


def test_the_legal_bids_run_from_zero_to_the_base_of_the_table_size():
    assert [legal_high(n) for n in (2, 3, 4)] == [10, 15, 20]


def test_a_known_logistic_curve_gives_back_its_fair_bid_inside_the_interval():
    fair = estimate(3, exact_points(3, fair=6.0, slope=-0.3, games=40))
    assert fair.enough_games
    assert fair.bid == pytest.approx(6.0, abs=0.01)
    assert fair.slope == pytest.approx(-0.3, abs=0.001)
    assert fair.low < 6.0 < fair.high
    assert fair.low >= 0 and fair.high <= 15


def test_the_interval_narrows_with_more_games():
    few = estimate(4, exact_points(4, fair=8.0, slope=-0.2, games=6))
    many = estimate(4, exact_points(4, fair=8.0, slope=-0.2, games=200))
    assert many.high - many.low < few.high - few.low


def test_a_trend_that_crosses_par_far_below_zero_is_clamped_to_zero():
    # The first player wins more than par at every bid and slightly more as the bid rises:
    # a straight line through these rates met par at -67.5 archaea. No bid is below 0 (DV-3).
    points = [BidPoint(3, bid, 30, wins) for bid, wins in ((0, 14), (1, 14), (2, 15), (3, 15))]
    fair = estimate(3, points)
    assert fair.bid == 0.0
    assert fair.at_zero
    assert 0.0 <= fair.low <= fair.high <= 15.0


def test_a_first_seat_worth_more_than_the_base_reads_as_the_legal_limit():
    # The first player wins 90% whatever they pay, a little less the more they pay.
    points = [BidPoint(4, bid, 50, 45 - bid // 2) for bid in range(5)]
    fair = estimate(4, points)
    assert fair.bid == 20.0
    assert fair.at_legal_limit
    assert fair.high <= 20.0


def test_below_the_minimum_sample_there_is_no_estimate():
    points = [BidPoint(3, 2, 10, 4), BidPoint(3, 3, 10, 3)]
    fair = estimate(3, points)
    assert fair.games == 20 < MIN_GAMES
    assert not fair.enough_games
    assert fair.bid is None


def test_one_bid_only_gives_no_estimate_however_many_games():
    fair = estimate(2, [BidPoint(2, 4, 500, 250)])
    assert not fair.enough_games
    assert fair.bid is None


def test_perfectly_separated_games_still_give_a_finite_estimate():
    points = [BidPoint(2, 0, 40, 40), BidPoint(2, 10, 40, 0)]
    fair = estimate(2, points)
    assert 0 < fair.bid < 10


def test_resamples_fitted_together_each_get_the_fit_they_get_alone():
    # The bootstrap fits its resamples side by side: one that converges in a step or two must
    # not be moved by the others' steps, and each must end where a fit of it alone does.
    bids, games = [0, 3, 6, 9], [50, 50, 50, 50]
    samples = [[40, 30, 20, 10], [25, 25, 25, 25], [50, 20, 5, 1], [10, 20, 30, 40]]
    intercepts, slopes, converged = fit_counts(bids, games, np.array(samples, float), (0.5, -0.2))
    assert converged.all()
    for wins, intercept, slope in zip(samples, intercepts, slopes, strict=True):
        alone = fit_logistic(
            [BidPoint(2, b, n, w) for b, n, w in zip(bids, games, wins, strict=True)]
        )
        assert (intercept, slope) == pytest.approx(alone, abs=1e-9)
    assert slopes[1] == pytest.approx(0, abs=1e-6)  # the same rate at every bid


def test_each_table_size_gets_its_own_estimate_in_order():
    points = exact_points(4, 9.0, -0.25, 30) + exact_points(2, 3.0, -0.4, 30)
    estimates = fair_bids(points, legal_high)
    assert [f.player_count for f in estimates] == [2, 4]
    assert estimates[0].bid == pytest.approx(3.0, abs=0.01)
    assert estimates[1].bid == pytest.approx(9.0, abs=0.01)


@pytest.mark.django_db
def test_the_strategy_page_says_not_enough_games_below_the_minimum_and_shows_the_data(
    client, django_capture_on_commit_callbacks
):
    from tests.stats_support import verified_games

    verified_games(django_capture_on_commit_callbacks, "deep-vents", 3, 6, seed="fair-bid")
    page = client.get("/stats/strategies/", {"game": "deep-vents"})
    html = page.content.decode()
    [fair] = page.context["fair_bids"]
    assert f"Not enough games yet (6 of {MIN_GAMES}" in html
    assert 'id="fair-bid-3"' in html
    assert "First players of 3-player games by winning bid" in html
    assert sum(row["games"] for row in fair.rows) == 6


def test_the_games_that_would_settle_the_fair_bid_grow_with_the_square_of_its_interval():
    # A bootstrap interval narrows as 1 / sqrt(games): to narrow it from its width w to one
    # archaea takes games * w**2 games in all.
    fair = estimate(3, exact_points(3, fair=6.0, slope=-0.3, games=10))
    width = fair.high - fair.low
    assert width > 1
    assert fair.games_to_settle == math.ceil(fair.games * width**2)
    assert fair.more_games_to_settle == fair.games_to_settle - fair.games
    assert not fair.settled

    many = estimate(3, exact_points(3, fair=6.0, slope=-0.3, games=20_000))
    assert many.high - many.low <= 1
    assert many.settled and many.more_games_to_settle == 0


def test_below_the_minimum_the_games_to_settle_are_the_minimum_for_an_estimate():
    fair = estimate(3, [BidPoint(3, 2, 10, 4), BidPoint(3, 3, 10, 3)])
    assert fair.games_to_settle == MIN_GAMES


def test_the_fair_bid_section_says_how_many_more_games_would_settle_it():
    from django.template.loader import render_to_string

    fair = estimate(4, exact_points(4, fair=8.0, slope=-0.2, games=8))
    text = " ".join(render_to_string("stats/_fair_bids.html", {"fair_bids": [fair]}).split())
    more = fair.games_to_settle - round(fair.games)
    assert f"About {fair.games_to_settle} games in all ({more} more)" in text
