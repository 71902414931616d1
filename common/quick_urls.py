"""reverse() of a URL whose arguments are slugs and whole numbers, said once per pattern:
reverse() resolves the pattern and quotes its arguments on every call, some 4 microseconds,
once a row on the leaderboard and the per-hex table, twice a table on the tournament page
(issue 25). URLs do not change while the process runs; the script prefix can
(FORCE_SCRIPT_NAME, a mounted app), so it is part of the cache's key."""

from __future__ import annotations

import re
from functools import lru_cache

from django.urls import get_script_prefix, reverse

SLOT = "quick-urls-slot"
# A whole number's place: digits no URL of the site has, that an int or a slug converter
# accepts.
NUMBER_SLOT = 987_654_300
# What reverse() leaves as it is (no percent-quoting), and a slug converter accepts.
PLAIN_SLUG = re.compile(r"[-a-zA-Z0-9_]+")


@lru_cache(maxsize=128)
def pieces(name: str, kinds: tuple[type, ...], script_prefix: str) -> tuple[str, ...]:
    """The URL of `name` under this script prefix cut around its arguments (of these
    kinds: str or int), one piece more than there are arguments."""
    slots = [f"{SLOT}{i}" if kind is str else str(NUMBER_SLOT + i) for i, kind in enumerate(kinds)]
    rest = reverse(name, args=slots)
    cut = []
    for slot in slots:
        before, rest = rest.split(slot, 1)
        cut.append(before)
    return (*cut, rest)


def quick_url(name: str, *args: str | int) -> str:
    """reverse(name, args=args), the same string, for slugs and whole numbers; anything
    reverse() would quote (or refuse) goes through reverse() itself."""
    for arg in args:
        if type(arg) is int:
            if arg < 0:
                return reverse(name, args=args)
        elif type(arg) is not str or not PLAIN_SLUG.fullmatch(arg):
            return reverse(name, args=args)
    cut = pieces(name, tuple(type(arg) for arg in args), get_script_prefix())
    return "".join(piece + str(arg) for piece, arg in zip(cut, args, strict=False)) + cut[-1]


def slug_url(name: str, slug: str) -> str:
    """reverse(name, args=[slug]), the same string (quick_url)."""
    return quick_url(name, slug)
