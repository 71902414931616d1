# ruff: noqa: E501, RUF001 (the loops as the templates had them, en dashes and all)
"""The tournament page's standings rows and a table's seats are written by tags in Python
(tournament_tables), not template loops, which cost about half the page's time (issue 25):
byte for byte the text the loops wrote, for results placed and not, dropped players, hand
entered results, eliminations (DV-8), opening bidders (DV-3) and missing summaries."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from common.quick_numbers import floatformat, unlocalize
from players.models import Player
from tournaments.services.standings import Standing
from tournaments.services.table_views import SeatView
from tournaments.templatetags.tournament_tables import seats_table, standings_rows

# The loops as tournaments/detail.html and tournaments/_seats.html had them.
STANDINGS_LOOP = Template(
    "{% load l10n %}{% for row in standings %}\n"
    '    <tr data-handle="{{ row.player.handle }}">\n'
    '      <td data-sort="{{ forloop.counter }}">{% if row.placed %}{{ row.position }}{% else %}–{% endif %}</td>\n'
    '      <td data-sort="{{ row.player.display_name }}" class="identity"><a href="{{ row.player.get_absolute_url }}">{{ row.player.display_name }}</a>{% if row.dropped %} <span class="tag">dropped</span>{% endif %}{% if row.unverified_tables %} <span class="tag" title="results entered by hand">{{ row.unverified_tables }} unverified</span>{% endif %}</td>\n'
    '      <td data-sort="{{ row.points|unlocalize }}">{% if row.placed %}{{ row.points|floatformat:2 }}{% else %}–{% endif %}</td>\n'
    '      <td data-sort="{{ row.tables }}">{{ row.tables }}</td>\n'
    '      <td data-sort="{{ row.sonneborn_berger|unlocalize }}">{% if row.placed %}{{ row.sonneborn_berger|floatformat:2 }}{% else %}–{% endif %}</td>\n'
    '      <td data-sort="{{ row.opponents_average|unlocalize }}">{% if row.placed %}{{ row.opponents_average|floatformat:2 }}{% else %}–{% endif %}</td>\n'
    '      <td data-sort="{{ row.average_placement|default_if_none:\'\'|unlocalize }}">{{ row.average_placement|floatformat:2|default:"–" }}</td>\n'
    '      <td data-sort="{{ row.total_score|unlocalize }}">{% if row.placed %}{{ row.total_score|floatformat:0 }}{% else %}–{% endif %}</td>\n'
    "    </tr>\n"
    "  {% endfor %}"
)
SEATS_LOOP = Template(
    '{% load seat_summaries %}{% with columns=game_type|seat_columns %}<div class="table-scroll"><table class="seats">\n'
    "  <thead><tr><th>Place</th><th>Player</th><th>Score</th>{% for column in columns %}<th>{{ column.label }}</th>{% endfor %}</tr></thead>\n"
    "  <tbody>\n"
    "  {% for s in seats %}\n"
    "    <tr>\n"
    '      <td>{{ s.rank|default:"–" }}</td>\n'
    '      <td><a href="{{ s.player.get_absolute_url }}">{{ s.player.display_name }}</a>\n'
    '        {% if s.opening_bidder %}<span class="tag" title="drawn to open the bidding (DV-3)">opens bidding</span>{% endif %}\n'
    '        {% if s.eliminated_turn is not None %}<span class="tag" title="DV-8">eliminated (game turn {{ s.eliminated_turn }})</span>{% endif %}</td>\n'
    '      <td>{% if s.score is None %}–{% else %}{{ s.score|floatformat:"-1" }}{% endif %}</td>\n'
    '      {% for column in columns %}<td>{{ s.summary|summary_value:column.key|default_if_none:"–" }}</td>{% endfor %}\n'
    "    </tr>\n"
    "  {% endfor %}\n"
    "  </tbody>\n"
    "</table></div>{% endwith %}"
)

MARINA = Player(handle="marina", display_name='Marina <Abyss> & "Co" O\'Neil')
SID = Player(handle="squid", display_name="Sid Squid")
ANN = Player(handle="ann_1", display_name="Ann Anglerfisch")


def standings() -> list[Standing]:
    return [
        Standing(1, 0.1, points=9.0, sonneborn_berger=12.249999999999998, tables=3,
                 opponents_average=4.214285714285714, average_placement=1.0, total_score=166.0,
                 position=1, player=MARINA),
        Standing(2, 0.2, dropped=True, points=4.5, sonneborn_berger=0.125, tables=2,
                 unverified_tables=2, opponents_average=-0.005, average_placement=2.5,
                 total_score=-12.5, position=2, player=SID),
        Standing(3, 0.3, dropped=True, position=3, player=ANN),
    ]  # fmt: skip


def seats() -> list[SeatView]:
    return [
        SeatView(SID, False, 1, 26.0, {"turn_order": 2, "bid": None}),
        SeatView(MARINA, True, 2, 17.25, {"turn_order": 1, "bid": 20}, eliminated_turn=7),
        SeatView(ANN, False, None, None, None),
        SeatView(ANN, False, 0, -12.0, {"turn_order": 3}, eliminated_turn=0),
    ]


def test_the_standings_rows_are_the_loops():
    rows = standings()

    assert standings_rows(rows) == STANDINGS_LOOP.render(Context({"standings": rows}))


@pytest.mark.parametrize("game_type", ["deep-vents", "deep-sea-adventure", "no-such-game"])
def test_the_seats_table_is_the_loops(game_type):
    table = seats()

    written = seats_table(table, game_type)

    assert written == SEATS_LOOP.render(Context({"seats": table, "game_type": game_type}))
    assert "opens bidding" in written and "eliminated (game turn 7)" in written


@pytest.mark.parametrize(
    "value",
    [0, 1, -1, 166, 0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.005, -0.005, -0.001, 1 / 3,
     12.249999999999998, 4.214285714285714, 1234567.891, 1e-07, 1e16, 1.5e300,
     float("inf"), float("nan"), None, "", "x", True],
)  # fmt: skip
@pytest.mark.parametrize("places", [-1, 0, 1, 2, 3])
def test_quick_numbers_write_what_the_filters_write(value, places):
    filters = Template("{% load l10n %}{{ v|floatformat:p }}|{{ v|unlocalize }}")

    written = filters.render(Context({"v": value, "p": places}))

    assert f"{floatformat(value, places)}|{unlocalize(value)}" == written
