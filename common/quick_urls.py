"""reverse() of a URL that takes one slug, said once per pattern: reverse() resolves the
pattern and quotes its argument on every call, some 4 microseconds, once a row on the
leaderboard and the per-hex table (issue 25). URLs do not change while the process runs; the
script prefix can (FORCE_SCRIPT_NAME, a mounted app), so it is part of the cache's key."""

from __future__ import annotations

import re
from functools import lru_cache

from django.urls import get_script_prefix, reverse

SLOT = "quick-urls-slot"
# Stands for the number in an <int:...> pattern (which refuses SLOT): no URL here has it.
NUMBER_SLOT = 918273645546372819
# What reverse() leaves as it is (no percent-quoting), and a slug converter accepts.
PLAIN_SLUG = re.compile(r"[-a-zA-Z0-9_]+")


@lru_cache(maxsize=64)
def halves(name: str, script_prefix: str) -> tuple[str, str]:
    """The URL of `name` before and after its slug, under this script prefix."""
    before, after = reverse(name, args=[SLOT]).split(SLOT)
    return before, after


def slug_url(name: str, slug: str) -> str:
    """reverse(name, args=[slug]), the same string; a slug that reverse() would quote (or
    refuse) goes through reverse() itself."""
    if not PLAIN_SLUG.fullmatch(slug):
        return reverse(name, args=[slug])
    before, after = halves(name, get_script_prefix())
    return f"{before}{slug}{after}"


@lru_cache(maxsize=64)
def number_halves(name: str, script_prefix: str) -> tuple[str, str]:
    """The URL of `name` before and after its number, under this script prefix."""
    before, after = reverse(name, args=[NUMBER_SLOT]).split(str(NUMBER_SLOT))
    return before, after


def number_url(name: str, number: int) -> str:
    """reverse(name, args=[number]) of a pattern taking one whole number (a game's log id in
    a player's games list, once a row), the same string."""
    before, after = number_halves(name, get_script_prefix())
    return f"{before}{int(number)}{after}"
