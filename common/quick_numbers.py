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
    """`{{ value|floatformat:places }}` for places -6..6."""
    text = plain(value)
    if (
        text is None
        or abs(places) not in STEPS
        or settings.USE_THOUSAND_SEPARATOR
        or formats.get_format("DECIMAL_SEPARATOR") != "."
    ):
        return django_floatformat(value, places)
    number = Decimal(text)
    if places <= 0 and number == number.to_integral_value():
        return str(int(number))
    rounded = number.quantize(STEPS[abs(places)], ROUND_HALF_UP, PRECISION)
    written = f"{rounded:f}"
    # -0.001 rounds to 0.00, written without its sign (as the filter does).
    return written[1:] if written[0] == "-" and not rounded else written


def unlocalize(value: Any) -> str:
    """`{{ value|unlocalize }}`: a number's text with no locale, which is its str()."""
    if type(value) is int or type(value) is float:
        return str(value)
    return django_unlocalize(value)
