"""The fair bid section is written by a tag in Python (stats_cells.fair_bid_section), not its
template's loop of conditions and filters, a fifth of the strategy page's template time
(issue 25): byte for byte what stats/_fair_bids.html wrote, in every state an estimate can
be in. Its values are all numbers (no text from data reaches it).
"""

import math
from pathlib import Path

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string

from stats.services.fair_bid import BidPoint, estimate
from stats.templatetags.stats_cells import fair_bid_section

# The template as stats/_fair_bids.html had it (the rows were already its fair_bid_rows tag).
TEMPLATE = Template((Path(__file__).parent / "fair_bids_template_before_issue_25.html").read_text())


def curve(players: int, fair: float, slope: float, games: float, high: int) -> list[BidPoint]:
    """Games whose wins follow a logistic curve crossing par at `fair`."""
    par = 1 / players
    intercept = math.log(par / (1 - par)) - slope * fair
    return [
        BidPoint(players, bid, games, games / (1 + math.exp(-(intercept + slope * bid))))
        for bid in range(high + 1)
    ]


ESTIMATES = {
    "too few games": estimate(3, [BidPoint(3, 2, 10.5, 4), BidPoint(3, 3, 10, 3)], 15),
    "one bid only": estimate(3, [BidPoint(3, 2, 100, 40)], 15),
    "no games": estimate(2, [], 10),
    "a flat curve": estimate(4, [BidPoint(4, b, 200, 50) for b in range(6)], 20),
    "unsettled": estimate(4, curve(4, fair=8.0, slope=-0.2, games=8, high=20), 20),
    "settled": estimate(3, curve(3, fair=6.0, slope=-0.3, games=20_000, high=15), 15),
    "at the legal limit": estimate(3, curve(3, fair=40.0, slope=-0.2, games=60, high=15), 15),
    "at zero": estimate(3, curve(3, fair=-9.0, slope=-0.4, games=60, high=15), 15),
    "shared wins": estimate(
        3, [BidPoint(3, 0, 40.0, 17.5), BidPoint(3, 4, 31.0, 10.0), BidPoint(3, 9, 22, 2.5)], 15
    ),
}


def templates_section(fair_bids: list) -> str:
    """The old template's section, less the file's last line end (the tag's template keeps
    that)."""
    rendered = TEMPLATE.render(Context({"fair_bids": fair_bids}))
    assert rendered.endswith("</section>\n")
    return rendered.removesuffix("\n")


@pytest.mark.parametrize("state", ESTIMATES)
def test_each_state_of_an_estimate_is_written_as_the_template_wrote_it(state):
    fair = ESTIMATES[state]
    assert fair_bid_section([fair]) == templates_section([fair])


def test_the_states_cover_every_branch_of_the_template():
    fairs = list(ESTIMATES.values())
    assert any(not f.enough_games and len(f.points) < 2 for f in fairs)
    assert any(not f.enough_games and len(f.points) >= 2 for f in fairs)
    assert any(f.enough_games and f.bid is None for f in fairs)
    assert any(f.at_legal_limit for f in fairs) and any(f.at_zero for f in fairs)
    assert any(f.bid is not None and f.settled for f in fairs)
    assert any(f.bid is not None and not f.settled for f in fairs)


def test_several_table_sizes_are_written_in_one_section_as_the_template_wrote_them():
    fairs = list(ESTIMATES.values())
    assert fair_bid_section(fairs) == templates_section(fairs)


def test_the_pages_template_includes_the_section_with_its_closing_line():
    fairs = [ESTIMATES["unsettled"], ESTIMATES["too few games"]]
    assert render_to_string("stats/_fair_bids.html", {"fair_bids": fairs}) == TEMPLATE.render(
        Context({"fair_bids": fairs})
    )
