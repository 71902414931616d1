"""The strategy page's fair bids are estimated once for the same points (a fit and 200
seeded refits a table size: 3-4 ms of a request, issue 25): every request of the same
figures after the first gets the estimate kept, equal to a fresh one, and new games (new
points) are estimated afresh."""

import math

import pytest

from stats.adapters import adapter_for
from stats.services import fair_bid
from stats.services.fair_bid import BidPoint, estimate, fair_bids

legal_high = adapter_for("deep-vents").bid_limit


def points(games: float) -> list[BidPoint]:
    """Two table sizes' first players, their wins following a logistic curve of the bid."""
    return [
        BidPoint(players, bid, games, games / (1 + math.exp(-(-1.5 + 0.2 * bid))))
        for players in (3, 4)
        for bid in range(0, legal_high(players) + 1, 2)
    ]


@pytest.fixture
def estimated(monkeypatch) -> list[tuple]:
    """The estimates actually computed (rather than kept), by their table size and games."""
    fair_bid.kept_estimate.cache_clear()
    computed = []

    def counted(player_count: int, group: list[BidPoint], high: int, seed: int = 0):
        computed.append((player_count, sum(p.games for p in group)))
        return estimate(player_count, group, high, seed)

    monkeypatch.setattr(fair_bid, "estimate", counted)
    yield computed
    fair_bid.kept_estimate.cache_clear()


def test_the_same_points_are_estimated_once_and_as_a_fresh_estimate(estimated):
    first = fair_bids(points(80), legal_high)
    again = fair_bids(list(reversed(points(80))), legal_high)  # equal points, in any order
    assert again == first
    assert estimated == [(3, 80 * 8), (4, 80 * 11)]
    fresh = [estimate(f.player_count, list(f.points), legal_high(f.player_count)) for f in again]
    assert again == fresh
    assert all(f.bid is not None and f.low < f.bid < f.high for f in again)


def test_new_games_are_estimated_afresh(estimated):
    fair_bids(points(80), legal_high)
    more = fair_bids(points(90), legal_high)
    assert estimated == [(3, 640), (4, 880), (3, 720), (4, 990)]
    assert more != fair_bids(points(80), legal_high)
    assert len(estimated) == 4
