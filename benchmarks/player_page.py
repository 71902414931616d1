"""A player's page rendered in process, with no page cache: CPU ms and wall ms a request, and
the queries one request makes (issue 25: every page p95 under 50 ms uncached at 1M games).

Run against a database built by `stats_load.py --keep` (its busiest player by default), with
this checkout's code or another's (`--tree`), so that two trees' runs can be alternated:

    .venv/bin/python benchmarks/player_page.py --database-url postgres://.../deepsea_bench \
        [--tree ../other-checkout] [--requests 40] [--handle NAME] [--dump DIR] \
        [--cache redis://127.0.0.1:6379/N]

Prints one line: the tree, the handle and its games, median and least CPU ms and wall ms
over the requests (after two not counted), the queries a request makes and their time.
With --dump, the page's HTML is written to DIR/<tree>.html, its CSP nonce blanked, so that
two trees' pages can be compared byte for byte. With --cache, the page cache is that Redis
database (what a visitor sees: the rating chart kept there after the first request) instead
of none.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from page_timing import THIS_TREE, django_on, dump, timed, uncached_client


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--tree", default=THIS_TREE)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--handle", help="the player (by default the one with most games)")
    parser.add_argument("--dump", help="write the page's HTML to this directory")
    parser.add_argument("--cache", help="a Redis URL for the page cache (default: no cache)")
    args = parser.parse_args()

    tree = django_on(args.tree, args.database_url)
    from django.db.models import Count

    from players.models import Player

    handle = args.handle
    if handle is None:
        handle = (
            Player.objects.annotate(n=Count("seats"))
            .order_by("-n")
            .values_list("handle", flat=True)[0]
        )
    games = Player.objects.get(handle=handle).seats.count()
    with uncached_client() as client, cache_on(args.cache):
        timing = timed(client, f"/players/{handle}/", args.requests)
    cached = "cached" if args.cache else "uncached"
    print(
        f"{tree}: {handle} ({games} games), {args.requests} requests {cached}: {timing}",
        flush=True,
    )
    if args.dump:
        dump(timing.content, args.dump, tree)


@contextmanager
def cache_on(url: str | None) -> Iterator[None]:
    """The page cache in this Redis database, emptied first, if a URL is given."""
    if url is None:
        yield
        return
    from django.core.cache import cache
    from django.test import override_settings

    redis = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    with override_settings(CACHES={"default": redis}):
        cache.clear()
        yield


if __name__ == "__main__":
    main()
