"""The tournament page's standings rows, its rounds with their tables, and a table's seats
(the tournament and table pages), written in Python: the template loops cost about half the
tournament page's time, a variable and a filter at a time (issue 25: the page's p95 at 1M
games). Byte for byte the loops' text:
tests/tournaments/test_standings_and_seats_are_written_as_the_loops_wrote_them.py renders
the loops as they were beside these tags, and
tests/tournaments/test_the_tournament_page_is_the_html_its_templates_wrote.py the whole page
as its templates wrote it from the models."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from django import template
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from common.quick_numbers import floatformat, unlocalize
from common.quick_urls import quick_url, slug_url
from games.templatetags.seat_summaries import seat_columns
from tournaments.models import Tournament
from tournaments.services.standings import Standing
from tournaments.services.table_views import SeatView
from tournaments.services.tournament_page import TableShown

register = template.Library()

DASH = "\N{EN DASH}"
STANDING_ROW = (
    '\n    <tr data-handle="{handle}">\n'
    '      <td data-sort="{counter}">{position}</td>\n'
    '      <td data-sort="{name}" class="identity"><a href="{url}">{name}</a>{marks}</td>\n'
    '      <td data-sort="{points_sort}">{points}</td>\n'
    '      <td data-sort="{tables}">{tables}</td>\n'
    '      <td data-sort="{sb_sort}">{sb}</td>\n'
    '      <td data-sort="{opponents_sort}">{opponents}</td>\n'
    '      <td data-sort="{placement_sort}">{placement}</td>\n'
    '      <td data-sort="{score_sort}">{score}</td>\n'
    "    </tr>\n  "
)
SEATS_TABLE = (
    '<div class="table-scroll"><table class="seats">\n'
    "  <thead><tr><th>Place</th><th>Player</th><th>Score</th>{headers}</tr></thead>\n"
    "  <tbody>\n  {rows}\n  </tbody>\n</table></div>"
)
SEAT_ROW = (
    "\n    <tr>\n"
    "      <td>{rank}</td>\n"
    '      <td><a href="{url}">{name}</a>\n'
    "        {opens}\n"
    "        {eliminated}</td>\n"
    "      <td>{score}</td>\n"
    "      {cells}\n"
    "    </tr>\n  "
)
ROUND_SECTION = (
    '\n<section class="round">\n'
    '  <h3>Round {number} <small>(<a href="{url}">seating sheet</a>)</small></h3>\n'
    "  {tables}\n</section>\n"
)
TABLE_ARTICLE = (
    '\n  <article class="table">\n'
    "    <h4>Table {number} \N{MIDDLE DOT} {players} players \N{MIDDLE DOT}\n"
    "      {kind}\n"
    '      \N{MIDDLE DOT} <a href="{url}">bid record</a>{game}{record}</h4>\n'
    "    {seats}\n\n"
    "  </article>\n  "
)
KIND_SHOWN = {
    "verified": "verified result",
    "unverified": '<span class="tag">unverified: entered by hand</span>',
}
NO_ROUNDS = "\n<p>No round has been seated yet.</p>\n"
OPENS = '<span class="tag" title="drawn to open the bidding (DV-3)">opens bidding</span>'
ELIMINATED = '<span class="tag" title="DV-8">eliminated (game turn {})</span>'


def text(value: Any) -> str:
    """`{{ value }}` in a template: localized, then escaped."""
    if type(value) is int:
        return str(value)
    return conditional_escape(localize(value))


def placed(row: Standing, value: str) -> str:
    """A result's text, or a dash while the player has none."""
    return value if row.placed else DASH


@register.simple_tag
def standings_rows(standings: Iterable[Standing]) -> SafeString:
    """The rows of the standings table, in the order given."""
    rows = []
    for counter, row in enumerate(standings, start=1):
        name = escape(row.player.display_name)
        marks = ' <span class="tag">dropped</span>' if row.dropped else ""
        if row.unverified_tables:
            marks += (
                ' <span class="tag" title="results entered by hand">'
                f"{text(row.unverified_tables)} unverified</span>"
            )
        placement = row.average_placement
        rows.append(
            STANDING_ROW.format(
                handle=escape(row.player.handle),
                counter=counter,
                position=placed(row, text(row.position)),
                name=name,
                url=escape(slug_url("players:detail", row.player.handle)),
                marks=marks,
                points_sort=escape(unlocalize(row.points)),
                points=placed(row, floatformat(row.points, 2)),
                tables=text(row.tables),
                sb_sort=escape(unlocalize(row.sonneborn_berger)),
                sb=placed(row, floatformat(row.sonneborn_berger, 2)),
                opponents_sort=escape(unlocalize(row.opponents_average)),
                opponents=placed(row, floatformat(row.opponents_average, 2)),
                placement_sort="" if placement is None else escape(unlocalize(placement)),
                placement=(floatformat(placement, 2) if placement is not None else "") or DASH,
                score_sort=escape(unlocalize(row.total_score)),
                score=placed(row, floatformat(row.total_score, 0)),
            )
        )
    return mark_safe("".join(rows))  # every value is escaped or a number's text


@register.simple_tag
def rounds_tables(
    rounds: Iterable[tuple[int, Iterable[tuple[TableShown, list[SeatView]]]]],
    tournament: Tournament,
) -> SafeString:
    """The rounds (tournament_page.TournamentShown.rounds), each a section of its tables
    with their seats (seats_table), a link to record the game of a table still waiting for
    one while the tournament runs."""
    slug, game_type = tournament.slug, tournament.game_type
    running = tournament.status == Tournament.Status.RUNNING
    record = escape(quick_url("games:record"))
    sections = []
    for number, tables in rounds:
        articles = []
        for table, seats in tables:
            kind = table.result_kind
            articles.append(
                TABLE_ARTICLE.format(
                    number=table.number,
                    players=len(seats),
                    kind=KIND_SHOWN.get(kind, "awaiting result"),
                    url=escape(table.url),
                    game=f' \N{MIDDLE DOT} <a href="{escape(table.game_url)}">the game</a>'
                    if kind == "verified"
                    else "",
                    record=f'\n      \N{MIDDLE DOT} <a href="{record}?table={table.pk}">'
                    "record this game</a>"
                    if kind == "pending" and not table.log_id and running
                    else "",
                    seats=seats_table(seats, game_type),
                )
            )
        sections.append(
            ROUND_SECTION.format(
                number=number,
                url=escape(quick_url("tournaments:seating", slug, number)),
                tables="".join(articles),
            )
        )
    return mark_safe("".join(sections) or NO_ROUNDS)  # every value is escaped or a number


@register.simple_tag
def seats_table(seats: Iterable[SeatView], game_type: str) -> SafeString:
    """A table's seats, best placed first, with the game's summary columns
    (Game.seat_columns)."""
    columns = seat_columns(game_type)
    rows = []
    for seat in seats:
        summary = seat.summary or {}
        cells = "".join(
            f"<td>{DASH if value is None else text(value)}</td>"
            for value in (summary.get(column.key) for column in columns)
        )
        rows.append(
            SEAT_ROW.format(
                rank=text(seat.rank) if seat.rank else DASH,
                url=escape(slug_url("players:detail", seat.player.handle)),
                name=escape(seat.player.display_name),
                opens=OPENS if seat.opening_bidder else "",
                eliminated=""
                if seat.eliminated_turn is None
                else ELIMINATED.format(text(seat.eliminated_turn)),
                score=DASH if seat.score is None else floatformat(seat.score, -1),
                cells=cells,
            )
        )
    headers = "".join(f"<th>{text(column.label)}</th>" for column in columns)
    return mark_safe(SEATS_TABLE.format(headers=headers, rows="".join(rows)))
