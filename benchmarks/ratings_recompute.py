"""Ratings at scale: the full recompute of 100,000 rated games, and what a verifying
transaction spends on ratings.

Builds --games rated 4-player Deep Vents games among --players players, spread over three
years, a few with tied places: logs, games and seats as verification stores them, inserted
directly with bulk_create (not timed). Then:

1. `manage.py recompute_ratings` (call_command, the command's own path): one run to rate
   the games, then --runs timed runs, each replacing every rating and rating change in one
   transaction. Prints the median wall time with the range, the CPU time of this process
   (the database's is the rest), the queries, and the target (issue 14: under 10 s).
2. The time a verifying transaction spends on ratings, for a batch's group of games
   (games.services.verification.GROUP_SIZE) and for a single game, paired ABAB in this
   process, each run rolled back so every run sees the same database: "inline" rates them
   inside the transaction under the ledger lock, as every verification did before issue 14
   (and does now only without a broker, where there is no worker); "pending" is what a
   verification does now with a broker (one insert; the rater runs after the commit). For
   "inline", this process's CPU and the statements sent too (the rater's own cost, without
   the database's).

    .venv/bin/python benchmarks/ratings_recompute.py [--games 100000] [--players 2000]
    .venv/bin/python benchmarks/ratings_recompute.py --database-url sqlite:////tmp/r.sqlite3

About 5 minutes at the defaults on two cores (building the games takes most of it). It works
in a database of its own (--database-url; PostgreSQL's is created at the start and dropped at
the end unless --keep), and prints `uptime`'s load next to every figure.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench_support import create_database, drop_database, load

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/deepsea_ratings_bench"
GAME = "deep-vents"
TABLE = 4
FIRST_DAY = datetime(2023, 1, 1, tzinfo=UTC)
SPAN_SECONDS = 3 * 365 * 86400
TIE_SHARE = 0.05  # games where two players share a place
BATCH = 5_000  # rows per bulk_create
TARGET_SECONDS = 10


# --- the games (not timed) ------------------------------------------------------------------


def placements(rng: random.Random) -> list[int]:
    """Places of the seats (1 = best); sometimes two share one."""
    places = list(range(1, TABLE + 1))
    rng.shuffle(places)
    if rng.random() < TIE_SHARE:
        low, high = sorted(rng.sample(range(TABLE), 2), key=lambda seat: places[seat])
        places[high] = places[low]
    return places


def build_games(count: int, players: list, rng: random.Random, after: datetime | None = None):
    """`count` verified games: logs, games and seats, bulk inserted. Played over three years,
    or after `after` (the games a verification rates) when given."""
    from engines.registry import get_game
    from games.models import Game, GameLog, GameSeat, Source, Upload

    ruleset = get_game(GAME).ruleset()
    upload = Upload.objects.create(source=Source.HUMAN, filename="ratings-benchmark")
    games = []
    for start in range(0, count, BATCH):
        size = min(BATCH, count - start)
        raws = [f'{{"benchmark": {rng.getrandbits(64)}, "n": {start + i}}}' for i in range(size)]
        logs = GameLog.objects.bulk_create(
            GameLog(
                upload=upload,
                raw=raw,
                sha256=GameLog.digest(raw),
                game_type=GAME,
                status=GameLog.Status.VERIFIED,
            )
            for raw in raws
        )
        batch = Game.objects.bulk_create(
            Game(
                log=log,
                game_type=GAME,
                ruleset=ruleset.name,
                ruleset_options=dict(ruleset.options),
                edition=ruleset.edition,
                player_count=TABLE,
                source=Source.HUMAN,
                played_at=(
                    after + timedelta(seconds=i + 1)
                    if after
                    else FIRST_DAY + timedelta(seconds=rng.randrange(SPAN_SECONDS))
                ),
            )
            for i, log in enumerate(logs)
        )
        seats = []
        for game in batch:
            for seat, (player, place) in enumerate(
                zip(rng.sample(players, TABLE), placements(rng), strict=True)
            ):
                seats.append(
                    GameSeat(
                        game=game,
                        seat=seat,
                        player=player,
                        played_at=game.played_at,
                        name=player.display_name,
                        score=float(TABLE - place),
                        rank=place,
                        winner=place == 1,
                    )
                )
        GameSeat.objects.bulk_create(seats)
        games.extend(batch)
    return games


def build(count: int, player_count: int, seed: int) -> None:
    from players.models import Player

    rng = random.Random(seed)
    Player.objects.bulk_create(
        Player(handle=f"diver-{n}", display_name=f"Diver {n}", canonical_name=f"diver {n}")
        for n in range(player_count)
    )
    players = list(Player.objects.order_by("pk"))
    started = time.monotonic()
    build_games(count, players, rng)
    print(f"built {count:,} games among {player_count:,} players in "
          f"{time.monotonic() - started:.0f} s (not timed)", flush=True)  # fmt: skip


# --- 1. the full recompute ------------------------------------------------------------------


def database_cpu() -> float | None:
    """CPU seconds the database server process of this connection has used: PostgreSQL on
    this machine only (SQLite works in this process, counted in its CPU)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        [(pid,)] = cursor.fetchall()
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None  # another machine's server
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed_recompute() -> tuple[float, float, float | None, int]:
    """One `manage.py recompute_ratings`: wall, CPU here and in the database, queries."""
    from io import StringIO

    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    database = database_cpu()
    with CaptureQueriesContext(connection) as queries:
        wall, cpu = time.perf_counter(), time.process_time()
        call_command("recompute_ratings", stdout=StringIO())
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if database is not None:
        database = database_cpu() - database
    return wall, cpu, database, len(queries)


def measure_recompute(runs: int) -> dict:
    from ratings.models import RatingChange

    first = timed_recompute()
    print(f"first recompute (rates the games, not counted): {first[0]:.2f} s", flush=True)
    walls, cpus, databases = [], [], []
    for run in range(runs):
        wall, cpu, database, queries = timed_recompute()
        walls.append(wall)
        cpus.append(cpu)
        databases.append(database)
        in_database = "" if database is None else f", {database:.2f} s CPU in the database"
        averages = load()
        print(f"  run {run + 1}: {wall:.2f} s wall, {cpu:.2f} s CPU here{in_database}, "
              f"{queries} queries; load {averages}", flush=True)  # fmt: skip
    rated = RatingChange.objects.values("game_id").distinct().count()
    return {
        "walls": walls,
        "cpus": cpus,
        "databases": databases,
        "rated": rated,
        "changes": RatingChange.objects.count(),
    }


# --- 2. what a verifying transaction spends on ratings -------------------------------------


def in_transaction(games: list, inline: bool) -> tuple[float, float, int]:
    """The ratings receiver inside a verifying transaction, rolled back: seconds of wall
    time and of this process's CPU, and the statements it sent (a COPY counted as one)."""
    from django.db import connection, transaction

    from deepsea.celery import app
    from ratings import services

    statements = 0

    def count(execute, sql, params, many, context):
        nonlocal statements
        statements += 1
        return execute(sql, params, many, context)

    app.conf.task_always_eager = inline  # without a broker the rater runs in the transaction
    with transaction.atomic(), connection.execute_wrapper(count):
        started, cpu = time.perf_counter(), time.process_time()
        services.add_pending(games)
        spent, cpu = time.perf_counter() - started, time.process_time() - cpu
        transaction.set_rollback(True)
    return spent, cpu, statements


def measure_verification(runs: int, seed: int) -> dict:
    from django.db.models import Max

    from games.models import Game
    from games.services.verification import GROUP_SIZE
    from players.models import Player

    # games of their own each time (--reuse measures a database that has an earlier run's)
    rng = random.Random(f"{seed}-{Game.objects.count()}")
    latest = Game.objects.aggregate(latest=Max("played_at"))["latest"]
    players = list(Player.objects.order_by("pk"))
    group = build_games(GROUP_SIZE, players, rng, after=latest)
    single = group[:1]
    figures = {}
    for name, games in [(f"group of {GROUP_SIZE}", group), ("single game", single)]:
        times = {"inline": [], "pending": [], "inline CPU": [], "inline statements": []}
        for _ in range(runs):  # ABAB
            for mode in ("inline", "pending"):
                wall, cpu, statements = in_transaction(games, inline=mode == "inline")
                times[mode].append(wall)
                if mode == "inline":
                    times["inline CPU"].append(cpu)
                    times["inline statements"].append(statements)
        figures[name] = times
    return figures


def ms(values: list[float]) -> str:
    return (
        f"{statistics.median(values) * 1000:8.2f} ms "
        f"(range {min(values) * 1000:.2f}-{max(values) * 1000:.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="rated games (100,000)")
    parser.add_argument("--players", type=int, default=2_000, help="players (2,000)")
    parser.add_argument("--runs", type=int, default=3, help="timed recomputes (3)")
    parser.add_argument(
        "--verify-runs", type=int, default=21, help="paired runs per verification figure (21)"
    )
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--reuse", action="store_true", help="measure a database kept by --keep")
    args = parser.parse_args()
    if args.players < TABLE:
        parser.error(f"--players must be at least {TABLE}")

    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "deepsea.settings"
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    if not args.reuse:
        create_database(args.database_url)
    import django
    from django.core.management import call_command
    from django.db import connection, connections

    django.setup()
    try:
        call_command("migrate", verbosity=0)
        if not args.reuse:
            build(args.games, args.players, args.seed)
        print(f"load before measuring: {load()}", flush=True)
        recompute = measure_recompute(args.runs)
        verification = measure_verification(args.verify_runs, args.seed)
        walls = recompute["walls"]
        print(f"\n{connection.vendor}, {recompute['rated']:,} rated games, "
              f"{recompute['changes']:,} rating changes; load {load()}")  # fmt: skip
        print(
            f"recompute_ratings: median {statistics.median(walls):.2f} s wall "
            f"(range {min(walls):.2f}-{max(walls):.2f}, {len(walls)} runs), "
            f"{statistics.median(recompute['cpus']):.2f} s CPU in this process"
            + (
                f" + {statistics.median(recompute['databases']):.2f} s in the database"
                if None not in recompute["databases"]
                else ""
            )
            + f"; target under {TARGET_SECONDS} s"
        )
        print("time a verifying transaction spends on ratings (median of paired runs):")
        for name, times in verification.items():
            print(f"  {name:>13}: inline (before) {ms(times['inline'])}   "
                  f"pending (now) {ms(times['pending'])}")  # fmt: skip
            print(f"  {'':>13}  inline: CPU {ms(times['inline CPU'])}, "
                  f"{statistics.median(times['inline statements']):.0f} statements")  # fmt: skip
    finally:
        connections.close_all()
        if args.keep:
            print(f"kept {args.database_url}")
        else:
            drop_database(args.database_url)


if __name__ == "__main__":
    main()
