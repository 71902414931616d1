"""Table cells and headers of the statistics pages."""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

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
