"""The lists of games rendered in process, with no page cache: CPU ms and wall ms a request,
and the queries one request makes, page by page (issue 25: every page p95 under 50 ms
uncached at 1M games).

Run against a database built by `stats_load.py --keep`, with this checkout's code or
another's (`--tree`), so that two trees' runs can be alternated:

    .venv/bin/python benchmarks/list_pages.py --database-url postgres://.../deepsea_bench \
        [--tree ../other-checkout] [--requests 20] [--url /games/ --url /api/games/ ...] \
        [--profile] [--dump DIR]

By default: the games list, filtered by game, player, tournament and source, and deep (a
cursor half way down); the API's list, plain, by player and deep; the demo tournament's
page; the busiest player's page. Prints a line a page: median and least CPU ms and wall ms
over the requests (after two not counted), the queries a request makes and their time. With
--profile, the functions of the first page taking most CPU (cProfile); with --dump, each page's
HTML is written to DIR (its CSP nonce blanked), to compare two trees' pages (`diff -r`).
Any page can be named with --url: the tournament page and the leaderboard, for instance.
"""

from __future__ import annotations

import argparse
from urllib.parse import urlencode

from page_timing import THIS_TREE, django_on, dump, file_name, profile, timed, uncached_client


def default_urls() -> list[str]:
    """The lists' pages on this database (see the module's docstring)."""
    from django.db.models import Count

    from games.models import Game
    from games.pagination import GameCursorPagination
    from players.models import Player
    from tournaments.models import Tournament

    busiest = (
        Player.objects.annotate(n=Count("seats")).order_by("-n").values_list("handle", flat=True)
    )[0]
    middle = Game.objects.order_by("-played_at", "-pk")[Game.objects.count() // 2]
    deep = urlencode({"cursor": GameCursorPagination.cursor_of(middle)})
    tournament = Tournament.objects.order_by("pk").first()
    urls = [
        "/games/",
        "/games/?game=deep-vents",
        f"/games/?player={busiest}",
        "/games/?source=human",
        f"/games/?{deep}",
        "/api/games/",
        f"/api/games/?player={busiest}",
        f"/api/games/?{deep}",
        f"/players/{busiest}/",
        f"/players/{busiest}/?page=3",
    ]
    if tournament is not None:
        urls += [f"/games/?tournament={tournament.pk}", f"/tournaments/{tournament.slug}/"]
    return urls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--tree", default=THIS_TREE)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--url", action="append", help="a page (repeat); default: the lists")
    parser.add_argument("--profile", action="store_true", help="profile the first page")
    parser.add_argument("--dump", help="a directory to write each page's HTML to")
    args = parser.parse_args()

    tree = django_on(args.tree, args.database_url)
    urls = args.url or default_urls()
    with uncached_client() as client:
        if args.profile:
            profile(client, urls[0], args.requests)
            return
        for url in urls:
            timing = timed(client, url, args.requests)
            if args.dump:
                dump(timing.content, args.dump, file_name(url))
            print(f"{tree}: {url[:60]:<60} {timing}", flush=True)


if __name__ == "__main__":
    main()
