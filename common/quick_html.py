"""Django's conditional_escape and format_html without their lazy-string wrapper, which cost
more than the escaping itself where a page writes thousands of values (the filter bar's
widgets, leaderboard rows), writing the same bytes: tests/ratings/test_quick_format_html.py
compares them."""

from __future__ import annotations

import html
from typing import Any

from django.utils.safestring import SafeString, mark_safe


def escaped(value: Any) -> str:
    """conditional_escape: safe strings as they are, anything else through html.escape (as
    Django's escape does). A number's text has nothing to escape: it is written as it is."""
    if type(value) is int or type(value) is float:
        return str(value)
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def format_html(template: str, *args: Any) -> SafeString:
    """django.utils.html.format_html with positional arguments."""
    return mark_safe(template.format(*map(escaped, args)))
