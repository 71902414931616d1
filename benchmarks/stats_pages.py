"""The statistics pages and the leaderboard rendered in process, with no page cache: CPU ms a
request, wall ms and the queries one request makes, per page (issue 25: every page p95 under
50 ms uncached at 1M games, of which the CPU in Python is the part this measures apart from
the database).

Run against a database built by `stats_load.py --keep`, with this checkout's code or
another's (`--tree`), so that two trees' runs can be alternated (ABAB):

    .venv/bin/python benchmarks/stats_pages.py --database-url postgres://.../deepsea_bench \
        [--tree ../other-checkout] [--requests 20] [--page per-strategy ...] [--profile] \
        [--dump DIR]

Prints one line a page: the tree, the page, median and least CPU ms and median wall ms over
the requests (after two not counted), the queries a request makes and their time. With
--profile, the functions of the first page named taking most CPU (cProfile, cumulative). With
--dump, each page's HTML is written to DIR (its CSP nonce blanked), so two trees' pages can be
compared byte for byte (`diff -r`).
"""

from __future__ import annotations

import argparse
from urllib.parse import urlencode

from page_timing import THIS_TREE, django_on, dump, profile, timed, uncached_client

GAME = "deep-vents"
DATES = {"since": "2024-01", "until": "2024-12"}


def pages(hex_id: str, band: str) -> dict[str, str]:
    """The statistics pages of stats_load.py's list (each filter, and all of them), a hex's
    page with and without dates, and the leaderboard."""
    filters = {
        "": {},
        " dates": DATES,
        " band": {"band": band},
        " players": {"players": 4},
        " source": {"source": "human"},
        " dates source": {**DATES, "source": "human"},
        " dates band": {**DATES, "band": band},
        " all filters": {**DATES, "band": band, "players": 4, "source": "human"},
    }
    found = {"leaderboard": f"/leaderboards/{GAME}/"}
    for suffix, query in filters.items():
        found[f"per-hex{suffix}"] = f"/stats/hexes/?{urlencode(query)}"
        found[f"per-strategy{suffix}"] = f"/stats/strategies/?{urlencode({'game': GAME, **query})}"
    found["hex"] = f"/stats/hexes/{hex_id}/"
    found["hex dates"] = f"/stats/hexes/{hex_id}/?{urlencode(DATES)}"
    found["index"] = "/stats/"
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--tree", default=THIS_TREE)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument(
        "--page", action="append", help="a page's name (repeatable); by default every page"
    )
    parser.add_argument("--profile", action="store_true", help="profile the first page named")
    parser.add_argument("--dump", help="a directory to write each page's HTML to")
    args = parser.parse_args()

    tree = django_on(args.tree, args.database_url)
    from stats.services import hexes
    from stats.services.bands import BANDS

    hex_id = sorted(hexes.hex_names(GAME))[0]
    every = pages(hex_id, BANDS[1][1])
    chosen = args.page or list(every)
    unknown = [name for name in chosen if name not in every]
    if unknown:
        parser.error(f"no page {', '.join(unknown)}; the pages: {', '.join(every)}")
    with uncached_client() as client:
        if args.profile:
            profile(client, every[chosen[0]], args.requests)
            return
        for name in chosen:
            timing = timed(client, every[name], args.requests)
            if args.dump:
                dump(timing.content, args.dump, name.strip().replace(" ", "-"))
            print(f"{tree}: {name:<26} {timing}", flush=True)


if __name__ == "__main__":
    main()
