"""A game's name laid out for a heading: its phrases kept whole where the line allows."""

from __future__ import annotations

import re

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

register = template.Library()

# After the day's colon and each " · " (the separator stays at the end of its line).
_PHRASE_END = re.compile(r"(?<=:) |(?<= ·) ")


@register.filter
def in_phrases(name: str) -> SafeString:
    """ "Deep Vents, 28 Nov 2026: Club Night · round 1 · table 2" as phrases a line breaks
    between ("Deep Vents, 28 Nov 2026:", "Club Night ·", ...), each an inline block that
    breaks inside only when it is wider than the line (games.css)."""
    phrases = _PHRASE_END.split(name)
    return format_html_join(" ", '<span class="phrase">{}</span>', ((p,) for p in phrases))
