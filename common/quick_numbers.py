"""Django's floatformat and unlocalize filters for the floats and ints a page writes by the
dozen, quicker: the filters go through Decimal, number_format and the active locale's
formats on every call (some 20 microseconds), where a float's own repr and one quantize say
the same. Anything else (strings, None, infinities, exponents, a locale with another
decimal separator or thousands grouping) goes to Django's own filters, so the text is always
theirs (compared in
tests/tournaments/test_standings_and_seats_are_written_as_the_loops_wrote_them.py)."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal
from typing import Any

from django.conf import settings
from django.template.defaultfilters import floatformat as django_floatformat
from django.templatetags.l10n import unlocalize as django_unlocalize
from django.utils import formats

# Enough digits for any float's repr (at most 17 significant) and its decimals.
PRECISION = Context(prec=60)
STEPS = {places: Decimal(1).scaleb(-places) for places in range(7)}


def plain(value: Any) -> str | None:
    """The repr of a finite float or an int that the filters would write as it is, or None
    where they would not (another type, an exponent, nan, inf, bool)."""
    if type(value) is int:
        return str(value)
    if type(value) is float:
        text = repr(value)
        if "e" not in text and "n" not in text:  # 1e-07, nan, inf
            return text
    return None


def floatformat(value: Any, places: int) -> str:
    """`{{ value|floatformat:places }}` for places -6..6. The active locale's decimal
    separator is asked for only when the text has a decimal point: asking costs more than
    the rest (get_language reads a context-local, some 10 microseconds where no language is
    activated, as on this site's requests), and a whole number, the games lists' scores,
    needs none. Asked on every such call, never kept: the locale may change between calls."""
    text = plain(value)
    if text is None or abs(places) not in STEPS or settings.USE_THOUSAND_SEPARATOR:
        return django_floatformat(value, places)
    if places <= 0 and (type(value) is int or value.is_integer()):
        return str(int(value))
    rounded = Decimal(text).quantize(STEPS[abs(places)], ROUND_HALF_UP, PRECISION)
    written = f"{rounded:f}"
    if "." in written and formats.get_format("DECIMAL_SEPARATOR") != ".":
        return django_floatformat(value, places)
    # -0.001 rounds to 0.00, written without its sign (as the filter does).
    return written[1:] if written[0] == "-" and not rounded else written


def unlocalize(value: Any) -> str:
    """`{{ value|unlocalize }}`: a number's text with no locale, which is its str()."""
    if type(value) is int or type(value) is float:
        return str(value)
    return django_unlocalize(value)
