"""Table cells of the statistics pages."""

from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter
def interval_below(cell: str):
    """'1.12 [0.85, 1.40]' as the value with its interval on a smaller line below, so a
    column of estimates stays narrow."""
    value, bracket, interval = cell.partition(" [")
    if not bracket:
        return cell
    return format_html('{}<br><small class="interval">[{}</small>', value, interval)
