"""The bids under a fair bid are written by a tag in Python (stats_cells.fair_bid_rows), not
a template loop, which cost a fifth of the strategy page's time (issue 25): byte for byte
the rows the loop wrote, shared wins (halves), unfitted tables and all."""

from django.template import Context, Template

from stats.services.fair_bid import BidPoint, FairBid, estimate
from stats.templatetags.stats_cells import fair_bid_rows

# The loop as stats/_fair_bids.html had it.
LOOP = Template(
    "{% load l10n %}{% for p in f.rows %}\n"
    '      <tr><td data-sort="{{ p.bid }}">{{ p.bid }}</td>'
    '<td data-sort="{{ p.games|unlocalize }}">{{ p.games|floatformat:0 }}</td>'
    '<td data-sort="{{ p.wins|unlocalize }}">{{ p.wins|floatformat:0 }}</td>'
    '<td data-sort="{{ p.rate_value }}">{{ p.rate }}</td>'
    '<td data-sort="{{ p.fitted_value }}">{{ p.fitted }}</td></tr>\n'
    "    {% endfor %}"
)


def loop_rows(fair: FairBid) -> str:
    return LOOP.render(Context({"f": fair}))


def test_fitted_rows_with_shared_wins_are_the_loops():
    points = [
        BidPoint(3, 0, 40.0, 17.5),
        BidPoint(3, 2, 31.0, 10.0),
        BidPoint(3, 5, 22.0, 4.5),
        BidPoint(3, 7, 12345.0, 2500.25),
        BidPoint(3, 9, 3, 1),
    ]
    fair = estimate(3, points, 12)
    assert fair.slope is not None
    assert fair_bid_rows(fair) == loop_rows(fair)
    assert "2500.25" in fair_bid_rows(fair)  # the sort value keeps the fraction


def test_rows_without_a_fit_are_the_loops():
    fair = estimate(4, [BidPoint(4, 1, 2.0, 0.5), BidPoint(4, 3, 5.0, 2.0)], 10)
    assert fair.slope is None
    assert fair_bid_rows(fair) == loop_rows(fair)


def test_no_bids_no_rows():
    fair = estimate(2, [], 10)
    assert fair_bid_rows(fair) == loop_rows(fair) == ""
