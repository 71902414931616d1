"""The API's log list filtered by player (GET /api/logs/?player=<handle>): its page and count
queries as LogFilter builds them now (a semi-join on the player's seats, read from
games_seats_of_player) against the join of seats with DISTINCT it replaced (issue 25).

On a copy of a benchmark database (never the kept template):

    createdb -h 127.0.0.1 -U postgres -T deepsea_bench100k deepsea_<name>_100k
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/deepsea_<name>_100k \\
        .venv/bin/python benchmarks/logs_by_player.py [--handle H] [--pairs 15]

Prints each query's plan (EXPLAIN ANALYZE, BUFFERS) once, then the times of both forms run
in turn (ABAB, --pairs pairs, after a warm-up), medians and ranges in ms, with the machine's
load; and checks that both forms list the same logs in the same order.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")

import django

django.setup()

from django.contrib.auth.models import AnonymousUser  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402

from games.filters import LogFilter  # noqa: E402
from games.models import GameLog, GameSeat  # noqa: E402

PAGE = 50


def listed():
    """The API's queryset of logs (LogViewSet.get_queryset) for a reader signed out."""
    logs = GameLog.objects.select_related("upload", "game").order_by("-created", "-pk")
    return logs.visible_to(AnonymousUser())


def forms(handle: str) -> dict:
    new = LogFilter({"player": handle}, queryset=listed()).qs
    old = listed().filter(game__seats__player__handle=handle).distinct()
    return {"distinct join (before)": old, "semi-join on the seat index (after)": new}


def sql_of(queryset) -> tuple[str, tuple]:
    return queryset.query.sql_with_params()


def statements(queryset) -> dict[str, tuple[str, tuple]]:
    """The page's query and the paginator's count, as the API runs them."""
    page = queryset[:PAGE]
    count_sql, count_params = queryset.order_by().values("pk").query.sql_with_params()
    return {
        "page": sql_of(page),
        "count": (f"SELECT count(*) FROM ({count_sql}) AS listed", count_params),
    }


def explain(sql: str, params: tuple) -> str:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def timed(sql: str, params: tuple) -> float:
    with connection.cursor() as cursor:
        start = time.perf_counter()
        cursor.execute(sql, params)
        cursor.fetchall()
        return (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--handle", help="default: the player with the most seats")
    parser.add_argument("--pairs", type=int, default=15)
    args = parser.parse_args()
    handle = (
        args.handle
        or (
            GameSeat.objects.filter(player__isnull=False)
            .values("player__handle")
            .annotate(n=Count("pk"))
            .order_by("-n")
            .first()["player__handle"]
        )
    )
    both = forms(handle)
    lists = [list(queryset.values_list("pk", flat=True)) for queryset in both.values()]
    print(f"player {handle}: {len(lists[0])} logs; same logs, same order: {lists[0] == lists[1]}")
    runs = {name: statements(queryset) for name, queryset in both.items()}
    for name, queries in runs.items():
        for what, (sql, params) in queries.items():
            print(f"\n== {name}, {what}\n{explain(sql, params)}")
    for what in ("page", "count"):
        times: dict[str, list[float]] = {name: [] for name in runs}
        for name in runs:  # warm-up
            timed(*runs[name][what])
        for _ in range(args.pairs):
            for name in runs:
                times[name].append(timed(*runs[name][what]))
        print(
            f"\n{what}, {args.pairs} pairs ABAB, load {Path('/proc/loadavg').read_text().strip()}"
        )
        for name, values in times.items():
            print(
                f"  {name}: median {statistics.median(values):.2f} ms"
                f" (range {min(values):.2f}-{max(values):.2f})"
            )


if __name__ == "__main__":
    main()
