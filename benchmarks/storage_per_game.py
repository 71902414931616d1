"""Bytes a verified game costs: every table with its indexes and TOAST, per game, beside
the log's own zlib-compressed size.

N distinct 4-player Deep Vents logs (bot games under names dealt from a pool of 400, as
benchmarks/upload_throughput.py makes them) go in through the worker's code, in this
process: `intake.submit_batch` stores them and, with no broker, every task runs in-process
after its commit (verification, ratings, statistics lines and deltas) exactly as a worker
runs it. The whole stack (gunicorn, Celery, Redis) would store the same rows; it is left
out so the benchmark can run on a shared machine. Then the deltas are folded, `VACUUM FULL`
compacts every table, and `pg_total_relation_size` (table + indexes + TOAST) is read per
table. A game's bytes are the growth over the same database empty (migrated, vacuumed), so
the fixed cost of empty tables and indexes is not spread over the games.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/deepsea \\
    .venv/bin/python benchmarks/storage_per_game.py [--logs 5000]

It works in a database of its own (DATABASE_URL's name + _storage, or --database; created
and dropped: never name one in use). Target (issue 25): at most 4,000 bytes per game.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import zlib
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")

from bench_support import create_database, drop_database, load  # noqa: E402

TARGET = 4000  # bytes per verified game, all tables and indexes (issue 25)
SHOWN = 12  # tables listed by name; the others are summed as "everything else"


def table_sizes() -> dict[str, tuple[int, int]]:
    """Every table of the schema: (bytes with indexes and TOAST, rows)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, pg_total_relation_size(oid) FROM pg_class "
            "WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace"
        )
        sizes = dict(cursor.fetchall())
        rows = {}
        for name in sizes:
            cursor.execute(f'SELECT count(*) FROM "{name}"')
            rows[name] = cursor.fetchone()[0]
    return {name: (size, rows[name]) for name, size in sizes.items()}


def vacuum_full() -> None:
    from django.db import connection

    connection.ensure_connection()
    previous = connection.connection.autocommit
    connection.connection.autocommit = True  # VACUUM cannot run inside a transaction
    try:
        with connection.connection.cursor() as cursor:
            cursor.execute("VACUUM FULL ANALYZE")
    finally:
        connection.connection.autocommit = previous


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", type=int, default=5000)
    parser.add_argument(
        "--distinct", type=int, help="Games simulated (default: --logs), dealt other names."
    )
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--database", help="Database created and dropped.")
    parser.add_argument("--keep", action="store_true", help="Keep the database afterwards.")
    args = parser.parse_args()

    base = os.environ.get("DATABASE_URL", "")
    if not base.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL server (its database name is a prefix)")
    parts = urlsplit(base)
    name = args.database or f"{parts.path.lstrip('/')}_storage"
    url = urlunsplit(parts._replace(path=f"/{name}"))
    os.environ["DATABASE_URL"] = url
    os.environ.pop("CELERY_BROKER_URL", None)  # no broker: every task runs in-process
    os.environ.pop("REDIS_CACHE_URL", None)
    create_database(url)

    import django

    django.setup()
    from django.core.management import call_command
    from upload_throughput import deep_vents_logs

    try:
        call_command("migrate", verbosity=0)
        logs = deep_vents_logs(args.logs, args.distinct, args.seed, tag="storage")
        compressed = [len(zlib.compress(log)) for log in logs]
        from games.log_dictionary import LOGS

        preset = [len(LOGS.compress(log)) for log in logs]  # as the log is stored
        vacuum_full()
        empty = table_sizes()

        from games.models import GameLog
        from games.services.intake import submit_batch
        from stats.services.aggregate import fold_deltas

        started = time.monotonic()
        submit_batch(iter(logs), user=None, filename="storage.jsonl")
        loaded = time.monotonic() - started
        statuses = dict.fromkeys(GameLog.Status.values, 0)
        for status in GameLog.objects.values_list("status", flat=True):
            statuses[status] += 1
        if statuses[GameLog.Status.VERIFIED] != args.logs:
            sys.exit(f"not every log was verified: {statuses}")
        while fold_deltas():
            pass
        vacuum_full()
        full = table_sizes()
    finally:
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_database(url)

    games = args.logs
    growth = {
        table: (full[table][0] - empty.get(table, (0, 0))[0], full[table][1]) for table in full
    }
    ranked = sorted(growth.items(), key=lambda item: -item[1][0])
    total = sum(size for size, _ in growth.values())
    log_bytes = statistics.mean(len(log) for log in logs)
    zipped = statistics.mean(compressed)
    print(
        f"{games} verified 4-player Deep Vents games, loaded through the worker's code in "
        f"{loaded:.0f} s ({games / loaded:.0f} logs/s in one process); folded, VACUUM FULL"
    )
    print(
        f"log: {log_bytes:,.0f} bytes of JSON, {zipped:,.0f} bytes with zlib (level 6), "
        f"{statistics.mean(preset):,.0f} with the logs' preset dictionary (as stored)"
    )
    print(f"{'table':<28} {'bytes/game':>10} {'rows/game':>9}")
    for table, (size, rows) in ranked[:SHOWN]:
        print(f"{table:<28} {size / games:>10,.0f} {rows / games:>9.1f}")
    rest = sum(size for _, (size, _) in ranked[SHOWN:])
    print(f"{'everything else':<28} {rest / games:>10,.0f}")
    per_game = total / games
    print(
        f"{'all tables and indexes':<28} {per_game:>10,.0f}   "
        f"= {per_game / zipped:.1f}x the compressed log (target {TARGET:,}: "
        f"{'met' if per_game <= TARGET else 'missed'})"
    )
    print(f"load average: {load()} ({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
