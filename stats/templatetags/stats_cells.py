"""Table cells and headers of the statistics pages."""

from collections.abc import Iterable
from html import escape

from django import template
from django.template.defaultfilters import floatformat
from django.templatetags.l10n import unlocalize
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
    return mark_safe(
        "".join(
            FAIR_BID_ROW.format(
                escape(str(p["bid"])),
                escape(unlocalize(p["games"])),
                escape(whole(p["games"])),
                escape(unlocalize(p["wins"])),
                escape(whole(p["wins"])),
                escape(p["rate_value"]),
                escape(p["rate"]),
                escape(p["fitted_value"]),
                escape(p["fitted"]),
            )
            for p in fair.rows
        )
    )  # every value is escaped above


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
