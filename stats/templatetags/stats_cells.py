"""Table cells and headers of the statistics pages."""

import functools
from collections.abc import Iterable
from html import escape

from django import template
from django.template.defaultfilters import floatformat
from django.templatetags.l10n import unlocalize
from django.utils.formats import localize
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from common.quick_urls import slug_url
from stats.services.cells import bracketed
from stats.services.intervals import Estimate

register = template.Library()


@register.filter
def estimate(value: Estimate, digits: int = 2) -> str:
    """'value [low, high]' of an estimate, to `digits` decimals; blank without one."""
    return bracketed(value, int(digits))


@register.filter
def interval_below(cell: str):
    """'1.12 [0.85, 1.40]' as the value with its interval on a smaller line below, so a
    column of estimates stays narrow."""
    value, bracket, interval = cell.partition(" [")
    if not bracket:
        return cell
    return format_html('{}<br><small class="interval">[{}</small>', value, interval)


# The table rows below are built here rather than by loops in the templates: a page has up
# to a hundred rows of a dozen cells, and the template engine's per-variable work (context
# lookups, localisation, escaping through lazy-aware wrappers) cost more than all the rest
# of the page's Python (issue 25). The markup is the one the loops wrote, byte for byte.
ROW_START = "\n    <tr{}>\n      "
ROW_END = "\n    </tr>\n  "
GREYED = ' class="greyed" data-sort-group="1"'


def sort_cell(sort: str, html: str) -> str:
    """A <td> with its sort value (escaped here) around markup already safe."""
    return f'<td data-sort="{escape(sort)}">{html}</td>'


def interval_below_html(text: str) -> str:
    """interval_below's markup, escaped as the template escaped it."""
    value, bracket, interval = text.partition(" [")
    if not bracket:
        return escape(text)
    return f'{escape(value)}<br><small class="interval">[{escape(interval)}</small>'


@register.simple_tag
def hex_rows(rows: Iterable, query: str) -> SafeString:
    """The hex table's body rows: the hex's name linking to its page (with the filters'
    `query`), then its cells with their intervals below."""
    parts = []
    for r in rows:
        href = escape(f"{slug_url('stats:hex', r.hex)}?{query}")
        name = escape(r.name)
        cells = "".join(sort_cell(c.sort, interval_below_html(c.text)) for c in r.cells())
        parts.append(
            ROW_START.format(GREYED if r.greyed else "")
            + f'<td data-sort="{name}"><a href="{href}">{name}</a></td>\n      '
            + cells
            + ROW_END
        )
    return mark_safe("".join(parts))  # every value is escaped above


@register.simple_tag
def strategy_rows(rows: Iterable) -> SafeString:
    """The strategy table's body rows: the strategy's label, then its cells."""
    parts = []
    for r in rows:
        cells = "".join(sort_cell(c.sort, escape(c.text)) for c in r.cells())
        parts.append(
            ROW_START.format(GREYED if r.greyed else "")
            + f"<td>{escape(r.label)}</td>\n      "
            + cells
            + ROW_END
        )
    return mark_safe("".join(parts))  # every value is escaped above


FAIR_BID_ROW = (
    '\n      <tr><td data-sort="{0}">{0}</td><td data-sort="{1}">{2}</td>'
    '<td data-sort="{3}">{4}</td><td data-sort="{5}">{6}</td>'
    '<td data-sort="{7}">{8}</td></tr>\n    '
)


def whole(value: float) -> str:
    """floatformat:0, quickly for the whole numbers most counts are (shared wins are not)."""
    if type(value) is int or (type(value) is float and value.is_integer()):
        return str(int(value))
    return floatformat(value, 0)


@register.simple_tag
def fair_bid_rows(fair) -> SafeString:
    """The rows of a table size's bids under its fair bid (stats/_fair_bids.html), one per
    winning bid: bids, games, wins, the win rate and the fitted one, each with its sort value."""
    # Every value is a number written here (an int bid, counts, rates formatted by
    # FairBid.rows): digits, points, "%", "e", "-", "nan", none of which HTML escapes, so
    # none is passed through escape (a ninth of a call each, 9 a row, issue 25).
    return SafeString(
        "".join(
            FAIR_BID_ROW.format(
                p["bid"],
                unlocalize(p["games"]),
                whole(p["games"]),
                unlocalize(p["wins"]),
                whole(p["wins"]),
                p["rate_value"],
                p["rate"],
                p["fitted_value"],
                p["fitted"],
            )
            for p in fair.rows
        )
    )


# A table's column headings and its legend are the same for every request (the columns are
# stats.columns' constants): written once per list of columns and remembered, rather than a
# template loop of a dozen escaped variables a request (issue 25).
@register.simple_tag
def strategy_headings(columns: Iterable) -> SafeString:
    """The strategy table's headings: each column's label, its definition on hover, the
    relative win rate marked as the column sorted by (stats/_strategies_body.html)."""
    return headings_of(tuple(columns))


@functools.cache
def headings_of(columns: tuple) -> SafeString:
    return SafeString(
        "".join(
            f'<th scope="col" title="{escape(c.definition)}"'
            + (' aria-sort="descending"' if c.key == "relative" else "")
            + (f' data-sort-first="{escape(c.first)}"' if c.first else "")
            + f">{escape(c.label)}</th>"
            for c in columns
        )
    )


@register.simple_tag
def column_legend(columns: Iterable) -> SafeString:
    """What each column means, below a table (stats/_legend.html)."""
    return legend_of(tuple(columns))


@functools.cache
def legend_of(columns: tuple) -> SafeString:
    return SafeString(
        "".join(f"<dt>{escape(c.label)}</dt><dd>{escape(c.definition)}.</dd>" for c in columns)
    )


# The fair bid section (stats/_fair_bids.html) as its template wrote it: a page has three
# table sizes, each a dozen of the template's variables, conditions and filters, a fifth of
# the page's template time (issue 25). Every value in it is a number (counts and bids,
# formatted as the template formatted them), so nothing needs escaping.
FAIR_BID_INTRO = (
    '<section aria-labelledby="fair-bid-title">\n'
    '<h2 id="fair-bid-title">Fair starting bid (DV-3)</h2>\n'
    '<p class="note">The winning bid at which the first player wins as often as the table '
    "average (1 in <var>n</var>), read off a logistic fit of the first player's wins against "
    "the bid they paid. The range is a 95% bootstrap interval; every value lies between 0 and "
    "the base each player starts with, the legal bids. Shown from {} games at a table size "
    "on. An interval narrows as one over the square root of the games, which says how many "
    "would settle it.</p>\n"
)
FAIR_BID_HEAD = (
    '\n<article class="fair-bid" id="fair-bid-{0}">\n  <h3>{0} players</h3>\n'
    '  <p class="fair-bid-estimate">\n  '
)
FAIR_BID_TABLE = (
    '\n  </p>\n  {1}\n  <div class="table-scroll">\n  <table class="stats-table sortable">\n'
    "    <caption>First players of {0}-player games by winning bid</caption>\n"
    '    <thead><tr><th scope="col" aria-sort="ascending" data-sort-first="ascending" '
    'title="Archaea the first player bid for the first seat">Winning bid</th>'
    '<th scope="col" title="Games won by a bid of this size">Games</th>'
    '<th scope="col" title="Of those games, the ones the first player won">First player won</th>'
    '<th scope="col" title="First player won / games">Win rate</th>'
    '<th scope="col" title="The logistic fit\'s win rate at this bid">Fitted</th></tr></thead>\n'
    "    <tbody>\n    {2}\n    </tbody>\n  </table>\n  </div>\n</article>\n"
)


def fair_bid_estimate(f) -> str:
    """The estimate's paragraph text, as the template's if/elif/else wrote it."""
    if not f.enough_games:
        short_of_bids = ", and at least two different winning bids" if len(f.points) < 2 else ""
        return (
            f"\n    Not enough games yet ({whole(f.games)} of {localize(f.min_games)}"
            f"{short_of_bids}).\n  "
        )
    if f.bid is None:
        return (
            f"\n    No estimate: in these {whole(f.games)} games the bid made no difference "
            "to the first player's chances.\n  "
        )
    if f.at_legal_limit:
        limit = (
            f" (the most anyone may bid, {localize(f.legal_high)}: the first seat is worth "
            "at least that)"
        )
    elif f.at_zero:
        limit = " (even a free first seat wins less than par)"
    else:
        limit = ""
    return (
        f"\n    <strong>{floatformat(f.bid, 1)} archaea</strong>{limit},\n"
        f"    95% interval {floatformat(f.low, 1)} to {floatformat(f.high, 1)}, "
        f"from {whole(f.games)} games.\n  "
    )


def fair_bid_settling(f) -> str:
    """The paragraph on how many games would settle the estimate (none without one)."""
    if f.bid is None:
        return ""
    width = floatformat(f.settled_width, 0)
    if f.settled:
        said = f"Settled: the interval is no wider than {width} archaea."
    else:
        said = (
            f"About {localize(f.games_to_settle)} games in all "
            f"({localize(f.more_games_to_settle)} more) would narrow the interval to "
            f"{width} archaea and settle it."
        )
    return f'<p class="fair-bid-settle">{said}</p>'


@register.simple_tag
def fair_bid_section(fair_bids: list) -> SafeString:
    """The fair bid section: its note, then per table size the estimate, how many games
    would settle it and the table of its bids (stats/_fair_bids.html)."""
    parts = [FAIR_BID_INTRO.format(localize(fair_bids[0].min_games) if fair_bids else "")]
    for f in fair_bids:
        count = localize(f.player_count)
        parts.append(FAIR_BID_HEAD.format(count))
        parts.append(fair_bid_estimate(f))
        parts.append(FAIR_BID_TABLE.format(count, fair_bid_settling(f), fair_bid_rows(f)))
    parts.append("\n</section>")
    return SafeString("".join(parts))  # numbers and the constant text above only


@register.simple_tag(takes_context=True)
def sort_header(context, key: str, label: str, title: str, first: str = "") -> SafeString:
    """A column header of a table the server sorts by ?sort=key (highest first; "-key":
    lowest first, as stats.services.hexes.hex_table reads it).

    Without JavaScript the header is a link to the page sorted by the column (the other way
    round when it already is); static/site/sortable.js turns it into a button that sorts in
    the browser. aria-sort marks the column the server sorted by. `first` ("ascending") is
    the direction a column sorts in first, when lowest first is the natural reading.
    """
    sort = context.get("sort", "")
    direction = {key: "descending", f"-{key}": "ascending"}.get(sort, "")
    if direction:
        target = key if direction == "ascending" else f"-{key}"
    else:
        target = f"-{key}" if first == "ascending" else key
    query = context.get("query", "")
    return format_html(
        '<th scope="col" title="{}" data-sort-key="{}"{}{}><a href="?{}sort={}">{}</a></th>',
        title,
        key,
        format_html(' aria-sort="{}"', direction) if direction else "",
        format_html(' data-sort-first="{}"', first) if first else "",
        f"{query}&" if query else "",
        target,
        label,
    )
