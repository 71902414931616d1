"""Statistics at scale: 100,000 verified Deep Vents games, the rebuild and the pages under load.

A sample of Deep Vents games (2-4 players, both rulesets, bots and named human players) is
simulated and verified through the real path (games intake, replay, game_verified receivers
writing the statistics lines and cubes). Its rows (logs, games, seats, statistics lines) are
then copied server-side with INSERT ... SELECT under new ids and dates spread over three
years, up to --games games. Then every aggregate is rebuilt from scratch (timed), and the
site is served by gunicorn (2 workers, DEBUG off) while wrk, a second process, requests the
leaderboard, per-hex and per-strategy pages over loopback.

The copied games are then rated (one ratings recompute), so the leaderboard reads a full
history, and the page cache's versions are bumped as after rebuild_stats.

Prints the rebuild time, and per page the first request's time (cold: the page is rendered),
the median of nine single requests after it (warm: from the page cache), then the median and
95th percentile response time and the requests per second under load, against the targets of
issue 7 (p95 < 100 ms, rebuild < 60 s). The page cache is Redis when REDIS_CACHE_URL is set,
else each gunicorn worker's memory; --no-cache serves without it (every request renders).

    .venv/bin/python benchmarks/stats_load.py [--games 100000] [--sample 600] [--keep]
    .venv/bin/python benchmarks/stats_load.py --reuse [--keep] [--no-cache]  # measure again

About ten minutes at the defaults on two cores: verifying the sample takes most of it.

It works in a database of its own (deepsea_bench on the local PostgreSQL, or
--database-url), created at the start and dropped at the end unless --keep. Needs wrk
(apt-get install wrk).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/deepsea_bench"
GAME = "deep-vents"
SPAN_SECONDS = 3 * 365 * 86400  # played_at spread over three years
FIRST_DAY = "2023-01-01 00:00:00+00"
HUMAN_SHARE = 0.3  # of the sample: named players, so the leaderboard and bands have data
PLAYER_POOL = 120
COPY_ROWS = 20_000  # games copied per INSERT ... SELECT
P95_TARGET_MS = 100
REBUILD_TARGET_S = 60
PAGES = {
    "leaderboard": f"/leaderboards/{GAME}/",
    "per-hex": "/stats/hexes/",
    "per-strategy": f"/stats/strategies/?game={GAME}",
}
DUMMY_CACHE = "django.core.cache.backends.dummy.DummyCache"
WRK_SCRIPT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BENCH %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(95),
    e.connect + e.read + e.write + e.status + e.timeout))
end
"""


# --- the database ---------------------------------------------------------------------------


def create_database(url: str) -> None:
    """Create the benchmark's database, dropping a stale one left by an earlier run; refuse
    when something is connected to it (another run in progress)."""
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    admin_url = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        busy = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name]
        ).fetchone()[0]
        if busy:
            sys.exit(f"database {name} has {busy} connection(s): another run is using it")
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    admin_url = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --- the sample, through the real path -----------------------------------------------------


def sample_logs(count: int, seed: str) -> list[tuple[str, dict]]:
    """(source, log) pairs: every table size and ruleset, some tables of named humans."""
    from engines.core.simulate import simulate
    from engines.registry import get_game
    from games.models import Source

    game = get_game(GAME)
    rng = random.Random(seed)
    tables = [
        (p, r) for p in range(game.min_players, game.max_players + 1) for r in game.rulesets()
    ]
    logs = []
    for number, (players, ruleset) in enumerate(tables):
        share = count // len(tables) + (number < count % len(tables))
        for log in simulate(game, game.ruleset({"name": ruleset}), players, share, seed=seed):
            source = Source.HUMAN if rng.random() < HUMAN_SHARE else Source.SIMULATED
            if source == Source.HUMAN:
                names = rng.sample(range(PLAYER_POOL), players)
                log["players"] = [
                    {**entry, "name": f"Diver {n}"}
                    for entry, n in zip(log["players"], names, strict=True)
                ]
            moment = time.gmtime(time.time() - rng.randrange(SPAN_SECONDS))
            log["meta"] = {"played_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", moment)}
            logs.append((source, log))
    return logs


def load_sample(count: int) -> None:
    from django.db.models import Count

    from games.models import GameLog
    from games.services.intake import submit_batch

    started = time.perf_counter()
    logs = sample_logs(count, seed="stats-load")
    simulated = time.perf_counter()
    for source in {source for source, _ in logs}:
        lines = (json.dumps(log).encode() for s, log in logs if s == source)
        submit_batch(lines, user=None, source=source, filename=f"stats_load {source}")
    verdicts = dict(GameLog.objects.values_list("status").order_by().annotate(n=Count("pk")))
    print(
        f"sample: {len(logs)} games simulated in {simulated - started:.1f} s, "
        f"submitted and verified in {time.perf_counter() - simulated:.1f} s: {verdicts}",
        flush=True,
    )
    if verdicts.get(GameLog.Status.VERIFIED, 0) != len(logs):
        sys.exit("not every sample game was verified")


# --- replication ---------------------------------------------------------------------------


def copy_sql(model, source: str, joins: str, overrides: dict[str, str], where: str) -> str:
    """INSERT ... SELECT of `model`'s rows for each copy c, with some columns rewritten."""
    columns = [field.column for field in model._meta.concrete_fields]
    values = [overrides.get(column, f"t.{column}") for column in columns]
    return (
        f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) "
        f"SELECT {', '.join(values)} FROM {source} t {joins} "
        f"CROSS JOIN generate_series(%(first)s, %(last)s) c WHERE {where}"
    )


def replicate(total: int) -> None:
    """Copy the sample's rows until there are `total` games: copy c of sample game number
    rn is game number c * sample + rn, with ids shifted by c times each table's largest id
    and a played_at spread evenly over three years."""
    from django.conf import settings
    from django.core.management.color import no_style
    from django.db import connection, transaction

    from games.models import Game, GameLog, GameSeat
    from stats.models import HexLine, PairLine, RoundLine, SeatLine

    models = (GameLog, Game, GameSeat, SeatLine, PairLine, HexLine, RoundLine)
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE bench_sample AS SELECT id AS game_id, log_id, "
            "row_number() OVER (ORDER BY id) - 1 AS rn FROM games_game"
        )
        cursor.execute("SELECT count(*) FROM bench_sample")
        sample = cursor.fetchone()[0]
        stride = {}
        for model in models:
            cursor.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {model._meta.db_table}")
            stride[model] = cursor.fetchone()[0]
    number = f"(c * {sample} + s.rn)"
    played = (
        f"(timestamptz '{FIRST_DAY}' + make_interval(secs => "
        f"{number}::float8 * {SPAN_SECONDS} / {total}))"
    )
    month = f"date_trunc('month', {played} AT TIME ZONE '{settings.TIME_ZONE}')::date"

    def shift(model, column: str = "id") -> str:
        return f"t.{column} + c * {stride[model]}"

    wanted = f"{number} < {total}"
    by_game = "JOIN bench_sample s ON s.game_id = t.game_id"
    by_seat = (
        "JOIN stats_seatline sl ON sl.id = t.seat_id JOIN bench_sample s ON s.game_id = sl.game_id"
    )
    statements = [
        copy_sql(
            GameLog,
            "games_gamelog",
            "JOIN bench_sample s ON s.log_id = t.id",
            {
                "id": shift(GameLog),
                # Distinct like every stored log's; the raw text is the sample's.
                "sha256": "encode(sha256(convert_to(t.sha256 || '/' || c, 'UTF8')), 'hex')",
                "created": played,
                "status_changed": played,
                "verified_at": played,
            },
            wanted,
        ),
        copy_sql(
            Game,
            "games_game",
            "JOIN bench_sample s ON s.game_id = t.id",
            {"id": shift(Game), "log_id": shift(GameLog, "log_id"), "played_at": played},
            wanted,
        ),
        copy_sql(
            GameSeat,
            "games_gameseat",
            by_game,
            {"id": shift(GameSeat), "game_id": shift(Game, "game_id")},
            wanted,
        ),
        copy_sql(
            SeatLine,
            "stats_seatline",
            by_game,
            {"id": shift(SeatLine), "game_id": shift(Game, "game_id"), "month": month},
            wanted,
        ),
        *(
            copy_sql(
                line,
                line._meta.db_table,
                by_seat,
                {"id": shift(line), "seat_id": shift(SeatLine, "seat_id")},
                wanted,
            )
            for line in (PairLine, HexLine, RoundLine)
        ),
    ]
    copies = -(-total // sample)  # copy 0 is the sample itself
    per_statement = max(1, COPY_ROWS // sample)
    started = time.perf_counter()
    for first in range(1, copies, per_statement):
        last = min(copies - 1, first + per_statement - 1)
        with transaction.atomic(), connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement, {"first": first, "last": last})
        done = min(total, (last + 1) * sample)
        print(f"  {done} games ({time.perf_counter() - started:.0f} s)", flush=True)
    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)
        cursor.execute("ANALYZE")
    print(f"replicated to {total} games in {time.perf_counter() - started:.1f} s", flush=True)


def rebuild() -> float:
    """Rebuild every cube from scratch; check the cubes count every seat line once."""
    from django.db.models import Sum

    from stats.models import HexCube, HexLine, SeatLine, StrategyCube
    from stats.services.aggregate import rebuild_all

    started = time.perf_counter()
    timings = rebuild_all()
    seconds = time.perf_counter() - started
    print("rebuild: " + ", ".join(f"{name} {s:.1f} s" for name, s in timings.items()))
    counted = StrategyCube.objects.aggregate(n=Sum("n"))["n"]
    hexes = HexCube.objects.aggregate(n=Sum("n"))["n"]
    if counted != SeatLine.objects.count() or hexes != HexLine.objects.count():
        sys.exit(f"cubes count {counted} seats, {hexes} hex lines: not every line")
    return seconds


def recompute_ratings() -> None:
    """Rate the copied games too, so the leaderboard reads the history of every human game
    (the copies are inserted in bulk, past the signals that rate a verified game)."""
    from django.db import connection

    from ratings.services import recompute

    started = time.perf_counter()
    rated = recompute(GAME)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ratings_rating, ratings_ratingchange")
    print(f"ratings: {rated} games rated in {time.perf_counter() - started:.1f} s", flush=True)


def retire_cached_pages() -> None:
    """After a rebuild the cached fragments are stale (deepsea/cache.py): as rebuild_stats."""
    from deepsea.cache import RATINGS, STATS, bump_all

    bump_all(STATS)
    bump_all(RATINGS)


def table_sizes() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, n_live_tup, pg_size_pretty(pg_total_relation_size(relid)) "
            "FROM pg_stat_user_tables WHERE relname IN ('games_game', 'games_gameseat', "
            "'stats_seatline', 'stats_pairline', 'stats_hexline', 'stats_hexcube', "
            "'stats_strategycube', 'stats_paircube', 'ratings_ratingchange') ORDER BY relname"
        )
        return ", ".join(f"{name} {rows} rows {size}" for name, rows, size in cursor.fetchall())


# --- serving and load ----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def production_env(workdir: Path, database_url: str, cached: bool) -> dict[str, str]:
    """DEBUG off, with static files collected into the work dir by a settings module there;
    the page cache from REDIS_CACHE_URL (else per-process memory), or none when not `cached`."""
    no_cache = "" if cached else f"CACHES = {{'default': {{'BACKEND': {DUMMY_CACHE!r}}}}}\n"
    (workdir / "bench_settings.py").write_text(
        "from deepsea.settings import *  # noqa: F403\n"
        f"STATIC_ROOT = {str(workdir / 'static')!r}\n{no_cache}"
    )
    env = {key: value for key, value in os.environ.items() if key not in ("CELERY_BROKER_URL",)}
    env.update(
        DJANGO_SETTINGS_MODULE="bench_settings",
        PYTHONPATH=os.pathsep.join([str(workdir), str(ROOT)]),
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=database_url,
        CONN_MAX_AGE="60",
        LOG_LEVEL="WARNING",
    )
    return env


def start_site(env: dict[str, str], port: int, workers: int) -> subprocess.Popen:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=ROOT, env=env, check=True,
    )  # fmt: skip
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "deepsea.wsgi",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/stats/", timeout=5)
            return server
        except OSError:
            time.sleep(0.3)
    os.killpg(server.pid, signal.SIGTERM)
    sys.exit("gunicorn did not answer within 30 s")


def timed_get(url: str) -> tuple[int, int, float]:
    """Status, body size and time (ms) of one request."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            size = len(response.read())
            status = response.status
    except urllib.error.HTTPError as error:
        status, size = error.code, 0
    return status, size, (time.perf_counter() - started) * 1000


def load(url: str, script: Path, connections: int, seconds: int) -> dict[str, float]:
    """wrk against one URL: requests, median and p95 (ms), requests/s, errors."""
    result = subprocess.run(
        [
            "wrk",
            "--threads",
            str(min(2, connections)),
            "--connections",
            str(connections),
            "--duration",
            f"{seconds}s",
            "--timeout",
            "10s",
            "--script",
            str(script),
            url,
        ],
        capture_output=True,
        text=True,
        timeout=seconds + 30,
        check=True,
    )
    line = next(line for line in result.stdout.splitlines() if line.startswith("BENCH "))
    requests, micros, p50, p95, errors = (int(v) for v in line.split()[1:])
    return {
        "requests": requests,
        "median": p50 / 1000,
        "p95": p95 / 1000,
        "rps": requests / (micros / 1e6),
        "errors": errors,
    }


def measure_pages(env: dict[str, str], args: argparse.Namespace, workdir: Path) -> dict:
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install -y wrk")
    script = workdir / "report.lua"
    script.write_text(WRK_SCRIPT)
    port = free_port()
    server = start_site(env, port, args.workers)
    figures = {}
    try:
        # Both workers import, connect (database and cache) and compile what every page
        # needs, on a page measured nowhere (no Deep Dive games here), so that a page's first
        # request below measures rendering that page, not starting a worker.
        load(f"http://127.0.0.1:{port}/stats/strategies/?game=deep-dive", script, 4, 2)
        for name, path in PAGES.items():
            url = f"http://127.0.0.1:{port}{path}"
            # The first request renders the page (cold); the next ones, alone, show a warm page.
            status, size, cold = timed_get(url)
            if status != 200:
                print(f"{name}: {path} answered {status}, not measured")
                continue
            warm = sorted(timed_get(url)[2] for _ in range(9))[4]
            load(url, script, args.connections, 2)  # warm both workers
            figures[name] = load(url, script, args.connections, args.seconds)
            figures[name].update(kb=size / 1024, cold=cold, warm=warm)
            print(f"  {name} measured", flush=True)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    return figures


# --- the report ----------------------------------------------------------------------------


def report(games: int, rebuild_seconds: float, figures: dict, args: argparse.Namespace) -> None:
    verdict = "ok" if rebuild_seconds < REBUILD_TARGET_S else "MISSED"
    print(f"\n{games} verified {GAME} games")
    print(
        f"full rebuild of every cube: {rebuild_seconds:.1f} s "
        f"(target < {REBUILD_TARGET_S} s: {verdict})"
    )
    print(
        f"pages under load: gunicorn {args.workers} sync workers, wrk {args.connections} "
        f"connections for {args.seconds} s each, loopback, page cache: {cache_label(args)}"
    )
    print("  first request (cold: rendered) and median of 9 alone afterwards (warm), then the load")
    print(
        f"  {'page':<14}{'cold ms':>8}{'warm ms':>8}{'median ms':>10}{'p95 ms':>9}{'req/s':>8}"
        f"{'requests':>10}{'errors':>8}{'KB':>7}  p95 target"
    )
    for name, f in figures.items():
        verdict = "ok" if f["p95"] < P95_TARGET_MS and not f["errors"] else "MISSED"
        print(
            f"  {name:<14}{f['cold']:>8.1f}{f['warm']:>8.1f}{f['median']:>10.1f}{f['p95']:>9.1f}"
            f"{f['rps']:>8.1f}{f['requests']:>10}{f['errors']:>8}{f['kb']:>7.0f}"
            f"  < {P95_TARGET_MS} ms: {verdict}"
        )


def cache_label(args: argparse.Namespace) -> str:
    if args.no_cache:
        return "off (every request renders)"
    url = os.environ.get("REDIS_CACHE_URL")
    return f"Redis {url}" if url else "per-process memory"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000, help="games in the database")
    parser.add_argument("--sample", type=int, default=600, help="games simulated and verified")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="skip the loading: rebuild and measure a database kept by --keep",
    )
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--connections", type=int, default=4, help="concurrent wrk connections")
    parser.add_argument("--seconds", type=int, default=10, help="load per page")
    parser.add_argument(
        "--no-cache", action="store_true", help="serve without the page cache (uncached cost)"
    )
    args = parser.parse_args()
    if not 0 < args.sample <= args.games:
        parser.error("--sample must be between 1 and --games")

    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "deepsea.settings"
    os.environ.pop("CELERY_BROKER_URL", None)  # verification runs in this process
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    if not args.reuse:
        create_database(args.database_url)
    import django
    from django.core.management import call_command
    from django.db import connections

    django.setup()
    from games.models import Game

    workdir = Path(tempfile.mkdtemp(prefix="stats_load-"))
    try:
        call_command("migrate", verbosity=0)
        if not args.reuse:
            load_sample(args.sample)
            replicate(args.games)
        rebuild_seconds = rebuild()
        if not args.reuse:
            recompute_ratings()
        retire_cached_pages()
        print(table_sizes(), flush=True)
        connections.close_all()
        env = production_env(workdir, args.database_url, cached=not args.no_cache)
        figures = measure_pages(env, args, workdir)
        report(Game.objects.count(), rebuild_seconds, figures, args)
    finally:
        connections.close_all()
        shutil.rmtree(workdir, ignore_errors=True)
        if args.keep:
            print(f"kept {args.database_url}")
        else:
            drop_database(args.database_url)


if __name__ == "__main__":
    main()
