"""The numbers the per-hex and per-strategy pages show, checked against a hand-made set of
Deep Vents games whose figures are worked out here in plain Python, not by the app's code.

The games are stored as a verified Game with its seats and replay facts, then announced with
`game_verified`, as verification does: the statistics receivers build the lines and cubes
the pages read. Each check reads the rendered page: the table's cells and the figure data
embedded in it.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections import defaultdict
from html import unescape
from html.parser import HTMLParser

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameLog, GameSeat, Source, Upload
from games.signals import game_verified

pytestmark = pytest.mark.django_db

ANGLERFISH, BLACK_SMOKER, GIANT_SQUID, GULPER_EEL = (
    "anglerfish",
    "black-smoker",
    "giant-squid",
    "gulper-eel",
)
HEX_NAMES = {
    ANGLERFISH: "Anglerfish",
    BLACK_SMOKER: "Black Smoker",
    GIANT_SQUID: "Giant Squid",
    GULPER_EEL: "Gulper Eel",
}
Z95 = 1.959963984540054
# The prior the README documents: win rates over par are shrunk as if this many more seats
# had been played, winning exactly at par.
PRIOR_GAMES = 10

# Each game: its seats (strategy, score, rank, winner) in seat order, and its drafts
# (seat, the row offered, the hex taken, its position, paid, archaea found, the seat's turn).
GAMES = [
    {
        "seats": [("grower", 30, 1, True), ("turtle", 20, 2, False), ("attacker", 10, 3, False)],
        "drafts": [
            (0, [ANGLERFISH, BLACK_SMOKER, GIANT_SQUID], ANGLERFISH, 1, 0, 2, 1),
            (1, [BLACK_SMOKER, GIANT_SQUID], GIANT_SQUID, 2, 1, 0, 2),
            (2, [BLACK_SMOKER, GULPER_EEL], BLACK_SMOKER, 1, 0, 1, 7),
            (0, [BLACK_SMOKER, GULPER_EEL], GULPER_EEL, 2, 1, 0, 6),
        ],
    },
    {
        "seats": [("turtle", 25, 1, True), ("grower", 25, 1, True), ("attacker", 5, 3, False)],
        "drafts": [
            (0, [ANGLERFISH, BLACK_SMOKER], BLACK_SMOKER, 2, 1, 3, 1),
            (1, [ANGLERFISH, GIANT_SQUID], ANGLERFISH, 1, 0, 0, 1),
            (2, [ANGLERFISH, GIANT_SQUID, GULPER_EEL], GIANT_SQUID, 3, 2, 1, 3),
        ],
    },
    {
        "seats": [("attacker", 40, 1, True), ("grower", 12, 2, False), ("turtle", 12, 2, False)],
        "drafts": [
            (0, [ANGLERFISH, GULPER_EEL], ANGLERFISH, 1, 0, 1, 2),
            (1, [BLACK_SMOKER, GULPER_EEL], GULPER_EEL, 2, 1, 2, 2),
            (2, [ANGLERFISH, BLACK_SMOKER], BLACK_SMOKER, 1, 0, 0, 4),
        ],
    },
    {  # a two-player table: par is 1/2 here, 1/3 at the others
        "seats": [("grower", 15, 2, False), ("attacker", 18, 1, True)],
        "drafts": [
            (0, [ANGLERFISH, GIANT_SQUID], GIANT_SQUID, 1, 0, 1, 1),
            (1, [ANGLERFISH, BLACK_SMOKER], ANGLERFISH, 2, 1, 0, 1),
            (0, [ANGLERFISH, BLACK_SMOKER], ANGLERFISH, 1, 0, 0, 8),
        ],
    },
]


def store(number: int, spec: dict, played_at: datetime.datetime | None = None) -> Game:
    """One hand-made verified game, announced as verification announces it (played now
    unless `played_at` says when)."""
    upload = Upload.objects.create(source=Source.SIMULATED)
    raw = f"hand-made game {number}"
    log = GameLog.objects.create(
        upload=upload,
        raw=raw,
        sha256=GameLog.digest(raw),
        game_type="deep-vents",
        status=GameLog.Status.VERIFIED,
    )
    facts = []
    for seat, row, taken, position, paid, found, turn in spec["drafts"]:
        facts.append({"type": "offer", "seat": seat, "row": [{"hex": h} for h in row]})
        facts.append(
            {
                "type": "take",
                "seat": seat,
                "hex": taken,
                "position": position,
                "paid": paid,
                "archaea": found,
                "offered": list(row),
                "turn": turn,
            }
        )
    game = Game.objects.create(
        log=log,
        game_type="deep-vents",
        ruleset="starting-bid",
        edition="base",
        player_count=len(spec["seats"]),
        source=Source.SIMULATED,
        played_at=played_at or timezone.now(),
        facts=facts,
    )
    for seat, (strategy, score, rank, winner) in enumerate(spec["seats"]):
        GameSeat.objects.create(
            game=game,
            seat=seat,
            name=strategy,
            strategy=strategy,
            score=score,
            rank=rank,
            winner=winner,
        )
    game_verified.send(sender=Game, game=game)
    return game


@pytest.fixture
def hand_made_games(django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        for number, spec in enumerate(GAMES):
            store(number, spec)


# What the pages should show, worked out from GAMES directly.


def wilson(successes: float, trials: float) -> tuple[float, float, float]:
    """The 95 % Wilson score interval, written out from its textbook formula."""
    p = successes / trials
    z2 = Z95 * Z95
    centre = (successes + z2 / 2) / (trials + z2)
    half = Z95 * math.sqrt(trials) / (trials + z2) * math.sqrt(p * (1 - p) + z2 / (4 * trials))
    return p, max(0.0, centre - half), min(1.0, centre + half)


# The pages name bots as people read them (issue 27).
SHOWN_AS = {"grower": "Grower bot", "turtle": "Turtle bot", "attacker": "Attacker bot"}


def expected_strategies(games: list[dict] = GAMES) -> dict[str, dict[str, float]]:
    """Per bot, as the page names it: its seats' totals."""
    totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for spec in games:
        for strategy, score, rank, winner in spec["seats"]:
            row = totals[SHOWN_AS[strategy]]
            row["games"] += 1
            row["wins"] += winner
            row["par"] += 1 / len(spec["seats"])
            row["score"] += score
            row["rank"] += rank
    return totals


def expected_hexes(strategy: str | None = None) -> dict[str, dict[str, float]]:
    """Per hex: offers, takes, and the win rates of the seats that owned it or passed it over
    (offered it in a game and never took it), each relative to their tables' par; of one
    strategy's seats when given."""
    totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for spec in GAMES:
        par = 1 / len(spec["seats"])
        for seat, (played, _, _, winner) in enumerate(spec["seats"]):
            if strategy is not None and played != strategy:
                continue
            drafts = [d for d in spec["drafts"] if d[0] == seat]
            offered = {h for d in drafts for h in d[1]}
            owned = {d[2] for d in drafts}
            for _, row, taken, position, *_ in drafts:
                for hex_id in row:
                    totals[hex_id]["offered"] += 1
                totals[taken]["taken"] += 1
                totals[taken]["position"] += position
            for hex_id in offered:
                kind = "owned" if hex_id in owned else "passed"
                totals[hex_id][kind] += 1
                totals[hex_id][f"{kind}_wins"] += winner
                totals[hex_id][f"{kind}_par"] += par
    return totals


def relative(totals: dict[str, float], kind: str) -> tuple[float, float, float]:
    """Win rate over par, shrunk towards par, with its interval. Every hex of GAMES was both
    owned and passed over at least once."""
    return shrunk_over_par(totals[f"{kind}_wins"], totals[kind], totals[f"{kind}_par"])


# Reading the pages.


class Tables(HTMLParser):
    """Every <table> of a page as rows of cell texts (header cells included)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            # Soft hyphens (&shy;) only say where a long heading may break.
            text = "".join(self.cell).replace("\u00ad", "")
            self.tables[-1][-1].append(" ".join(text.split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def table_by_first_column(html: str) -> dict[str, dict[str, str]]:
    """The page's first table: first-column text -> {column heading: cell text}."""
    parser = Tables()
    parser.feed(html)
    header, *rows = parser.tables[0]
    return {row[0]: dict(zip(header, row, strict=True)) for row in rows}


def figure_data(html: str, div_id: str) -> list[dict]:
    """The traces plotly.js is handed for the figure in <div id=div_id> (its JSON sits in the
    div's data-plotly-figure attribute: common/charts.py)."""
    found = re.search(rf'<div id="{re.escape(div_id)}"[^>]*\sdata-plotly-figure="([^"]*)"', html)
    assert found, f"no figure {div_id} on the page"
    return json.loads(unescape(found.group(1)))["data"]


def value_of(cell: str) -> float:
    """The value of a 'value [low, high]' cell."""
    return float(re.match(r"-?\d+(\.\d+)?", cell).group())  # the interval may follow unspaced


def shows(cell: str, value: float, digits: int) -> bool:
    """Whether a cell shows `value` rounded to `digits` decimals (either way at a tie)."""
    return abs(value_of(cell) - value) <= 0.5 * 10**-digits + 1e-9


def shows_interval(cell: str, interval: tuple[float, float, float], digits: int) -> bool:
    """Whether a 'value [low, high]' cell shows these three, rounded."""
    shown = [float(part) for part in re.findall(r"-?\d+\.\d+", cell)]
    return len(shown) == 3 and all(
        abs(a - b) <= 0.5 * 10**-digits + 1e-9 for a, b in zip(shown, interval, strict=True)
    )


def shrunk_over_par(wins: float, trials: float, par: float) -> tuple[float, float, float]:
    """The win rate over par shrunk towards par, as the README gives it: with the mean par
    p = par sum / trials, the rate (wins + k p) / (trials + k) and the Wilson interval of those
    counts, all over p."""
    mean_par = par / trials
    rate, low, high = wilson(wins + PRIOR_GAMES * mean_par, trials + PRIOR_GAMES)
    return rate / mean_par, low / mean_par, high / mean_par


def strategies_page(client, **filters: str) -> str:
    response = client.get(reverse("stats:strategies"), {"game": "deep-vents", **filters})
    assert response.status_code == 200
    return response.content.decode()


def hexes_page(client, **filters: str) -> str:
    response = client.get(reverse("stats:hexes"), {"min_sample": 1, **filters})
    assert response.status_code == 200
    return response.content.decode()


def test_the_strategy_table_shows_games_win_rates_scores_and_ranks_of_the_games(
    client, hand_made_games
):
    table = table_by_first_column(strategies_page(client))

    expected = expected_strategies()
    assert set(table) == set(expected)
    for strategy, totals in expected.items():
        row, games = table[strategy], totals["games"]
        rate, low, high = wilson(totals["wins"], games)
        assert row["Games"] == f"{games:.0f}"
        assert row["Win rate"] == f"{rate:.3f} [{low:.3f}, {high:.3f}]"
        assert shows_interval(
            row["Win rate / par"], shrunk_over_par(totals["wins"], games, totals["par"]), 2
        )
        assert shows(row["Average score"], totals["score"] / games, 1)
        assert shows(row["Average rank"], totals["rank"] / games, 2)


def test_the_strategy_chart_plots_each_strategys_shrunk_win_rate_over_par(client, hand_made_games):
    bars, *legend = figure_data(strategies_page(client), "strategy-win-rates")
    assert set(bars["marker"]["color"]) <= {entry["marker"]["color"] for entry in legend}

    expected = {
        strategy: shrunk_over_par(totals["wins"], totals["games"], totals["par"])
        for strategy, totals in expected_strategies().items()
    }
    plotted = zip(
        bars["x"], bars["y"], bars["error_y"]["arrayminus"], bars["error_y"]["array"], strict=True
    )
    assert {strategy: (y, y - minus, y + plus) for strategy, y, minus, plus in plotted} == {
        strategy: pytest.approx(interval) for strategy, interval in expected.items()
    }
    games_and_rates = {x: tuple(c) for x, c in zip(bars["x"], bars["customdata"], strict=True)}
    assert games_and_rates == {
        s: (t["games"], pytest.approx(t["wins"] / t["games"]))
        for s, t in expected_strategies().items()
    }


def expected_meetings(games: list[dict]) -> tuple[dict, dict]:
    """Per pair of bots as the page names them: the share of their meetings the first
    finished above the second (ties half), and the meetings."""
    above: dict[tuple[str, str], float] = defaultdict(float)
    meetings: dict[tuple[str, str], int] = defaultdict(int)
    for spec in games:
        for a, _, rank_a, _ in spec["seats"]:
            for b, _, rank_b, _ in spec["seats"]:
                if a != b:
                    a_shown, b_shown = SHOWN_AS[a], SHOWN_AS[b]
                    meetings[a_shown, b_shown] += 1
                    won = 1.0 if rank_a < rank_b else 0.5 if rank_a == rank_b else 0.0
                    above[a_shown, b_shown] += won
    return above, meetings


def test_the_head_to_head_chart_shows_the_share_of_meetings_finished_above(client, hand_made_games):
    [heatmap] = figure_data(strategies_page(client), "head-to-head")

    above, meetings = expected_meetings(GAMES)
    names = heatmap["y"]
    assert names == heatmap["x"] == sorted(expected_strategies())
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if a == b:
                assert heatmap["z"][i][j] is None
            else:
                assert heatmap["z"][i][j] == pytest.approx(above[a, b] / meetings[a, b])
                assert heatmap["customdata"][i][j] == meetings[a, b]


def test_the_hex_table_shows_offers_takes_positions_and_win_rates_owned_and_passed_over(
    client, hand_made_games
):
    table = table_by_first_column(hexes_page(client))

    expected = expected_hexes()
    assert set(table) == {HEX_NAMES[h] for h in expected}
    for hex_id, totals in expected.items():
        row = table[HEX_NAMES[hex_id]]
        assert row["Offered"] == f"{totals['offered']:.0f}"
        assert row["Taken"] == f"{totals['taken']:.0f}"
        assert shows_interval(row["Take rate"], wilson(totals["taken"], totals["offered"]), 2)
        assert shows(row["Avg position"], totals["position"] / totals["taken"], 2)
        assert row["Sample"] == f"{totals['owned'] + totals['passed']:.0f}"
        owned, passed = relative(totals, "owned"), relative(totals, "passed")
        assert shows_interval(row["Owned WR"], owned, 2)
        assert shows_interval(row["Passed WR"], passed, 2)
        assert shows(row["Improvement"], owned[0] - passed[0], 2)


def shows_the_hexes(table: dict[str, dict[str, str]], expected: dict) -> bool:
    return set(table) == {HEX_NAMES[h] for h in expected} and all(
        table[HEX_NAMES[hex_id]]["Offered"] == f"{totals['offered']:.0f}"
        and table[HEX_NAMES[hex_id]]["Taken"] == f"{totals['taken']:.0f}"
        and table[HEX_NAMES[hex_id]]["Sample"] == f"{totals['owned'] + totals['passed']:.0f}"
        for hex_id, totals in expected.items()
    )


def test_the_hex_table_with_a_date_range_counts_the_games_of_those_months_over_strategies(
    client, hand_made_games
):
    this_month = timezone.now().strftime("%Y-%m")
    with CaptureQueriesContext(connection) as queries:
        table = table_by_first_column(hexes_page(client, since=this_month, until=this_month))
    assert shows_the_hexes(table, expected_hexes())
    # Summed over strategies (and table sizes and rulesets) by month already
    # (stats.models.HexCubeByMonthSourceAndBand).
    read = " ".join(q["sql"] for q in queries.captured_queries)
    assert "stats_hexcubebymonthsourceandbandlive" in read

    last_year = f"{timezone.now().year - 1}-01"
    empty = Tables()
    empty.feed(hexes_page(client, since=last_year, until=last_year))
    assert [rows[1:] for rows in empty.tables] in ([], [[]])  # no table, or no row in it


def test_the_hex_table_with_a_date_range_and_a_strategy_counts_that_strategys_seats(
    client, hand_made_games
):
    this_month = timezone.now().strftime("%Y-%m")
    page = hexes_page(client, since=this_month, until=this_month, strategy="grower")
    assert shows_the_hexes(table_by_first_column(page), expected_hexes("grower"))


def test_the_head_to_head_heatmap_writes_each_share_on_its_cell_and_names_its_colours(
    client, hand_made_games
):
    [heatmap] = figure_data(strategies_page(client), "head-to-head")
    assert heatmap["texttemplate"] == "%{z:.0%}"
    assert heatmap["colorbar"]["title"]["text"]


def test_the_seat_chart_plots_each_seats_shrunk_win_rate_over_par(client, hand_made_games):
    by_seat, *_ = figure_data(strategies_page(client), "position-advantage")

    totals: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for spec in GAMES:
        for seat, (_, _, _, winner) in enumerate(spec["seats"]):
            totals[seat]["games"] += 1
            totals[seat]["wins"] += winner
            totals[seat]["par"] += 1 / len(spec["seats"])
    plotted = zip(
        by_seat["x"],
        by_seat["y"],
        by_seat["error_y"]["arrayminus"],
        by_seat["error_y"]["array"],
        strict=True,
    )
    assert {x: (y, y - minus, y + plus) for x, y, minus, plus in plotted} == {
        f"seat {seat + 1}": pytest.approx(shrunk_over_par(t["wins"], t["games"], t["par"]))
        for seat, t in totals.items()
    }


def test_each_hex_page_shows_its_shrunk_win_rates_with_their_intervals_and_samples(
    client, hand_made_games
):
    for hex_id, totals in expected_hexes().items():
        page = client.get(reverse("stats:hex", args=[hex_id]), {"min_sample": 1})
        figures = dict(re.findall(r'<dd id="hex-(\w+)">([^<]*)</dd>', page.content.decode()))
        for kind in ("owned", "passed"):
            shown = figures[kind]
            assert shows_interval(shown.rsplit(", from", 1)[0], relative(totals, kind), 2), kind
            assert shown.endswith(f"from {totals[kind]:.0f} games"), kind


def test_the_hex_scatter_names_both_of_its_colours_in_its_legend(client, hand_made_games):
    # The largest sample as the threshold: that hex is blue, the others grey.
    top = int(max(t["owned"] + t["passed"] for t in expected_hexes().values()))
    points, *legend = figure_data(hexes_page(client, min_sample=str(top)), "hex-scatter")

    names = {entry["marker"]["color"]: entry["name"] for entry in legend}
    assert set(points["marker"]["color"]) <= set(names)
    assert len(set(points["marker"]["color"])) == 2
    assert sorted(names.values()) == [
        f"sample of {top} games or more",
        f"sample under {top} games (greyed)",
    ]


# Two of GAMES, a three- and the two-player one, played 13 months before the others.
EARLIER = (1, 3)


@pytest.fixture
def games_in_two_months(django_capture_on_commit_callbacks) -> tuple[str, str]:
    """GAMES stored, EARLIER 13 months ago and the rest now; the two months as YYYY-MM."""
    now = timezone.now()
    earlier = now - datetime.timedelta(days=396)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        for number, spec in enumerate(GAMES):
            store(number, spec, earlier if number in EARLIER else now)
    return now.strftime("%Y-%m"), earlier.strftime("%Y-%m")


def test_the_strategy_page_with_a_date_range_counts_only_the_games_of_those_months(
    client, games_in_two_months
):
    """Its figures come from the cubes summed over source, table size, ruleset and band by
    month and strategy (stats.models.BY_MONTH): checked here against the games of each range,
    worked out from GAMES."""
    this_month, then = games_in_two_months
    later = [number for number in range(len(GAMES)) if number not in EARLIER]
    for since, until, numbers in ((this_month, this_month, later), (then, then, EARLIER)):
        games = [GAMES[number] for number in numbers]
        with CaptureQueriesContext(connection) as queries:
            page = strategies_page(client, since=since, until=until, min_sample="1")
        read = " ".join(q["sql"] for q in queries.captured_queries)
        for table in ("strategy", "score", "seat", "bid", "pair"):
            # On PostgreSQL the score chart reads the score bins packed by key (issue 25).
            packed = table == "score" and connection.vendor == "postgresql"
            assert f"stats_{table}cubebymonthandstrategy{'packed' if packed else 'live'}" in read

        table = table_by_first_column(page)
        expected = expected_strategies(games)
        assert set(table) == set(expected)
        for strategy, totals in expected.items():
            row, count = table[strategy], totals["games"]
            assert row["Games"] == f"{count:.0f}"
            assert shows_interval(row["Win rate"], wilson(totals["wins"], count), 3)
            assert shows_interval(
                row["Win rate / par"], shrunk_over_par(totals["wins"], count, totals["par"]), 2
            )
            assert shows(row["Average score"], totals["score"] / count, 1)
            assert shows(row["Average rank"], totals["rank"] / count, 2)

        [heatmap] = figure_data(page, "head-to-head")
        above, meetings = expected_meetings(games)
        names = heatmap["y"]
        for i, a in enumerate(names):
            for j, b in enumerate(names):
                if meetings.get((a, b)):
                    assert heatmap["z"][i][j] == pytest.approx(above[a, b] / meetings[a, b])
                    assert heatmap["customdata"][i][j] == meetings[a, b]
                else:
                    assert heatmap["z"][i][j] is None

        [boxes] = figure_data(page, "score-boxes")
        scores: dict[str, list[int]] = defaultdict(list)
        for spec in games:
            for strategy, score, _, _ in spec["seats"]:
                scores[SHOWN_AS[strategy]].append(score)
        assert dict(zip(boxes["x"], boxes["mean"], strict=True)) == {
            name: pytest.approx(sum(values) / len(values)) for name, values in scores.items()
        }
        assert dict(zip(boxes["x"], boxes["upperfence"], strict=True)) == {
            name: max(values) for name, values in scores.items()
        }

        by_seat, *_ = figure_data(page, "position-advantage")
        seats: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for spec in games:
            for seat, (_, _, _, winner) in enumerate(spec["seats"]):
                seats[seat]["games"] += 1
                seats[seat]["wins"] += winner
                seats[seat]["par"] += 1 / len(spec["seats"])
        assert dict(zip(by_seat["x"], by_seat["y"], strict=True)) == {
            f"seat {seat + 1}": pytest.approx(shrunk_over_par(t["wins"], t["games"], t["par"])[0])
            for seat, t in seats.items()
        }
