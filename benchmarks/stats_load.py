"""Statistics and lists at scale: 1,000,000 verified Deep Vents games, the full statistics
rebuild, and every page of issue 14 under load without the page cache.

A sample of distinct Deep Vents games (--sample, 10,000 by default: 2-4 players, both
rulesets, bots, and tables of named players drawn from --players names) is simulated by the
engine's bots and verified once through the real path (games intake, replay, the
game_verified receivers writing statistics lines, cubes and ratings), with one demo
tournament played and verified the same way. Its rows (logs, games, seats, statistics lines,
rating changes) are then copied server-side with INSERT ... SELECT under shifted ids, dates
(spread over three years) and players (each copy moves every named seat along the player
list, so each of the players plays in every period), up to --games games. Then every cube is
rebuilt from the lines with `manage.py rebuild_stats` (timed; the target is under 5 minutes)
and checked against the lines, and the site is served by gunicorn (DEBUG off, the page cache
off: every request renders) while wrk, a second process, requests each page with 4
connections: the leaderboard, the per-hex and per-strategy pages with no filter, with each
filter (date range, rating band, player count, source) and all of them together, the busiest
player's page and its rating chart's figure (ratings.json), the games list's first and a
deep page, the API list's first and a deep page (the deep ones through the keyset cursor of
a game half way down the list), and the tournament page.

Prints the data building time, the rebuild time, the database size and each table's bytes
per game, per page the median and 95th percentile response time under load (target p95 < 50
ms at 1M games) with the requests per second, and the web workers' peak resident memory
(VmHWM; target < 300 MB).

    .venv/bin/python benchmarks/stats_load.py [--games 1000000] [--sample 10000]
        [--players 2000] [--keep]
    .venv/bin/python benchmarks/stats_load.py --reuse [--keep]   # rebuild and measure again
    .venv/bin/python benchmarks/stats_load.py --reuse --grow --games 1000000 [--keep]
        # copy a kept database's games on to more (its games are then the sample)
    .venv/bin/python benchmarks/stats_load.py --reuse --keep --pages-only \
        --page leaderboard --page player --tree /work/main --tree . --rounds 2
        # a kept database as it is, some pages, two checkouts' code served in turn (ABAB)

Verifying the default sample took 15 minutes on two busy cores, copying it on to 1M games
another 30 (the database was then about 30 GB, 22 of them hex lines, before the hex lines
were packed a game to a row). The rating changes of
the copies are copied, not recomputed (a recompute of the copies' 300,000 rated games is
issue 14's ratings target, not this one's): the leaderboard reads the sample's ratings, the
player page a history of the player's size at 1M games.

It works in a database of its own (deepsea_bench on the local PostgreSQL, or
--database-url), created at the start and dropped at the end unless --keep. Needs wrk
(apt-get install wrk).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

from bench_support import create_database, drop_database

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/deepsea_bench"
GAME = "deep-vents"
SPAN_SECONDS = 3 * 365 * 86400  # played_at spread over three years
FIRST_DAY = "2023-01-01 00:00:00+00"
HUMAN_SHARE = 0.3  # of the sample: named players, so the leaderboard and bands have data
PLAYER_STEP = 7919  # each copy moves a named seat this far along the player list (a prime)
COPY_ROWS = 20_000  # games copied per INSERT ... SELECT
SUBMIT_CHUNK = 500  # sample logs per batch submitted
P95_TARGET_MS = 50  # at 1M games; 100 at 10M (issue 25)
REBUILD_TARGET_S = 300
RSS_TARGET_MB = 300
DUMMY_CACHE = "django.core.cache.backends.dummy.DummyCache"
WRK_SCRIPT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BENCH %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(95),
    e.connect + e.read + e.write + e.status + e.timeout))
end
"""


# --- the sample, through the real path -----------------------------------------------------


def player_name(number: int) -> str:
    return f"Diver {number}"


def sample_logs(count: int, players: int, seed: str) -> list[tuple[str, dict]]:
    """(source, log) pairs: every table size and ruleset, some tables of named players (each
    of the `players` names seated in turn, so that every one plays)."""
    from engines.core.simulate import simulate
    from engines.registry import get_game
    from games.models import Source

    game = get_game(GAME)
    rng = random.Random(seed)
    tables = [
        (p, r) for p in range(game.min_players, game.max_players + 1) for r in game.rulesets()
    ]
    next_player = 0
    logs = []
    for number, (seats, ruleset) in enumerate(tables):
        share = count // len(tables) + (number < count % len(tables))
        for log in simulate(game, game.ruleset({"name": ruleset}), seats, share, seed=seed):
            source = Source.HUMAN if rng.random() < HUMAN_SHARE else Source.SIMULATED
            if source == Source.HUMAN:
                # The next names in turn, then shuffled: distinct at one table.
                names = [(next_player + i) % players for i in range(seats)]
                next_player = (next_player + seats) % players
                rng.shuffle(names)
                log["players"] = [
                    {**entry, "name": player_name(n)}
                    for entry, n in zip(log["players"], names, strict=True)
                ]
            moment = time.gmtime(time.time() - rng.randrange(SPAN_SECONDS))
            log["meta"] = {"played_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", moment)}
            logs.append((source, log))
    rng.shuffle(logs)  # verified in an order mixing sizes and dates, like real uploads
    return logs


def load_sample(count: int, players: int) -> None:
    from django.db.models import Count

    from games.models import GameLog
    from games.services.intake import submit_batch
    from tournaments import demo

    started = time.perf_counter()
    logs = sample_logs(count, players, seed="stats-load")
    simulated = time.perf_counter()
    print(f"sample: {len(logs)} games simulated in {simulated - started:.0f} s", flush=True)
    for first in range(0, len(logs), SUBMIT_CHUNK):
        chunk = logs[first : first + SUBMIT_CHUNK]
        for source in sorted({source for source, _ in chunk}):
            lines = (json.dumps(log).encode() for s, log in chunk if s == source)
            submit_batch(lines, user=None, source=source, filename=f"stats_load {source}")
        done = first + len(chunk)
        print(f"  {done} verified ({time.perf_counter() - simulated:.0f} s)", flush=True)
    verdicts = dict(GameLog.objects.values_list("status").order_by().annotate(n=Count("pk")))
    if verdicts.get(GameLog.Status.VERIFIED, 0) != len(logs):
        sys.exit(f"not every sample game was verified: {verdicts}")
    demo.load(sys.stdout)  # the tournament page's tournament, verified the same way
    print(
        f"sample: {len(logs)} games submitted and verified in "
        f"{time.perf_counter() - simulated:.0f} s",
        flush=True,
    )


# --- replication ---------------------------------------------------------------------------


def copy_sql(model, source: str, joins: str, overrides: dict[str, str], where: str) -> str:
    """INSERT ... SELECT of `model`'s rows for each copy c, with some columns rewritten."""
    columns = [field.column for field in model._meta.concrete_fields]
    values = [overrides.get(column, f"t.{column}") for column in columns]
    return (
        f"INSERT INTO {model._meta.db_table} ({', '.join(columns)}) "
        f"SELECT {', '.join(values)} FROM {source} t "
        f"CROSS JOIN generate_series(%(first)s, %(last)s) c {joins} WHERE {where}"
    )


def replicate(total: int) -> None:
    """Copy the sample's rows until there are `total` games: copy c of sample game number
    rn is game number c * sample + rn, with ids shifted by c times each table's largest id,
    a played_at spread evenly over three years, and each named seat's player moved c *
    PLAYER_STEP places along the list of players (the same for every seat of a game, so a
    table's players stay distinct)."""
    from django.conf import settings
    from django.core.management.color import no_style
    from django.db import connection, transaction

    from games.models import Game, GameLog, GameSeat
    from players.models import Player
    from ratings.models import RatingChange
    from stats.models import HexLines, SeatLines

    models = (GameLog, Game)  # with an id to shift (a seat is keyed by its game and seat)
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE bench_sample AS SELECT id AS game_id, log_id, "
            "row_number() OVER (ORDER BY id) - 1 AS rn FROM games_game"
        )
        cursor.execute("CREATE UNIQUE INDEX ON bench_sample (game_id)")
        cursor.execute(
            f"CREATE TEMP TABLE bench_player AS SELECT id, display_name, "
            f"row_number() OVER (ORDER BY id) - 1 AS rn FROM {Player._meta.db_table}"
        )
        cursor.execute("CREATE UNIQUE INDEX ON bench_player (id)")
        cursor.execute("CREATE UNIQUE INDEX ON bench_player (rn)")
        cursor.execute("ANALYZE bench_sample")
        cursor.execute("ANALYZE bench_player")
        cursor.execute("SELECT count(*) FROM bench_sample")
        sample = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM bench_player")
        players = cursor.fetchone()[0]
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
    moved_player = (
        "LEFT JOIN bench_player op ON op.id = t.player_id "
        f"LEFT JOIN bench_player np ON np.rn = mod(op.rn + c * {PLAYER_STEP}, {players})"
    )
    statements = [
        copy_sql(
            GameLog,
            "games_gamelog",
            "JOIN bench_sample s ON s.log_id = t.id",
            {
                "id": shift(GameLog),
                # Distinct like every stored log's, copies of copies too (--grow); the raw
                # text is the sample's.
                "sha256": f"sha256(t.sha256 || convert_to('/{total}/' || c, 'UTF8'))",
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
            f"{by_game} {moved_player}",
            {
                "game_id": shift(Game, "game_id"),
                "played_at": played,
                "player_id": "np.id",
                "name": "coalesce(np.display_name, t.name)",
            },
            wanted,
        ),
        copy_sql(
            RatingChange,
            RatingChange._meta.db_table,
            f"{by_game} {moved_player}",
            {
                "game_id": shift(Game, "game_id"),
                "player_id": "np.id",
                "played_at": played,
            },
            wanted,
        ),
        copy_sql(
            SeatLines,
            SeatLines._meta.db_table,
            by_game,
            {"game_id": shift(Game, "game_id"), "month": month},
            wanted,
        ),
        copy_sql(
            HexLines, HexLines._meta.db_table, by_game, {"game_id": shift(Game, "game_id")}, wanted
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
    print(f"replicated to {total} games in {time.perf_counter() - started:.1f} s", flush=True)
    started = time.perf_counter()
    seat_lines_take_the_copies_players()
    print(f"seat lines packed with the copies' players in {time.perf_counter() - started:.1f} s")
    started = time.perf_counter()
    from ratings import history

    with transaction.atomic():
        history.rebuild()  # the copies' rating changes, as each player's packed history
    print(f"rating histories built again in {time.perf_counter() - started:.1f} s", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # the visibility map too, for index-only scans


def seat_lines_take_the_copies_players() -> None:
    """The packed seat lines carry each seat's player (stats.services.seat_packing), copied
    as the sample's: each copy's are packed again with its own seats' players."""
    from django.db import transaction

    from games.models import GameSeat
    from stats.models import SeatLines
    from stats.services import seat_packing

    last = 0
    while chunk := list(
        SeatLines.objects.filter(game_id__gt=last)
        .order_by("game_id")
        .values_list("game_id", "month", "packed")[:COPY_ROWS]
    ):
        players: dict[int, dict[int, int | None]] = {}
        seats = GameSeat.objects.filter(game_id__gte=chunk[0][0], game_id__lte=chunk[-1][0])
        for game_id, seat, player_id in seats.values_list("game_id", "seat", "player_id"):
            players.setdefault(game_id, {})[seat] = player_id
        changed = []
        for game_id, month, packed in chunk:
            lines, rounds = seat_packing.unpack(game_id, month, bytes(packed))
            moved = [line._replace(player=players[game_id][line.seat]) for line in lines]
            if moved != lines:
                packed = seat_packing.pack(moved, rounds)
                changed.append(SeatLines(game_id=game_id, month=month, packed=packed))
        with transaction.atomic():
            SeatLines.objects.bulk_update(changed, ["packed"], batch_size=2000)
        last = chunk[-1][0]


def rebuild() -> float:
    """`manage.py rebuild_stats`, timed; then check the cubes count every line once."""
    from django.core.management import call_command
    from django.db.models import Sum

    from games.models import GameSeat
    from stats.models import HexCube, HexLines, StrategyCube
    from stats.services import hex_packing

    started = time.perf_counter()
    call_command("rebuild_stats", stdout=sys.stdout)
    seconds = time.perf_counter() - started
    counted = StrategyCube.objects.aggregate(n=Sum("n"))["n"]
    hexes = HexCube.objects.aggregate(n=Sum("n"))["n"]
    lines = sum(
        len(hex_packing.unpack_matrix(bytes(packed))[0])
        for packed in HexLines.objects.values_list("packed", flat=True).iterator(chunk_size=5000)
    )
    seats = GameSeat.objects.filter(game__stat_seats__isnull=False).count()
    if counted != seats or hexes != lines:
        sys.exit(f"cubes count {counted} seats, {hexes} hex lines: not every line")
    return seconds


def table_sizes(games: int) -> str:
    """The database's size, and each table's (with indexes and TOAST) per game: the growth
    per table the README extrapolates from."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        (database,) = cursor.fetchone()
        cursor.execute(
            "SELECT relname, n_live_tup, pg_total_relation_size(relid) FROM "
            "pg_stat_user_tables ORDER BY pg_total_relation_size(relid) DESC LIMIT 14"
        )
        tables = cursor.fetchall()
    lines = [f"database: {database / 1e9:.2f} GB, {database / games:,.0f} bytes/game"]
    lines += [
        f"  {name:<28} {size / 1e6:>9.1f} MB {size / games:>8,.0f} B/game {rows:>11,} rows"
        for name, rows, size in tables
    ]
    return "\n".join(lines)


# --- the pages -----------------------------------------------------------------------------


def pages() -> dict[str, str]:
    """Every page of issue 14's list, by name: the statistics pages with no filter, each
    filter and all of them; the busiest player; deep pages through a keyset cursor of the
    game half way down the list (as a visitor following "older" links gets there)."""
    from django.db.models import Count

    from games.models import Game
    from games.pagination import GameCursorPagination
    from players.models import Player
    from stats.services.bands import BANDS
    from tournaments.demo import DEMO_SLUG

    band = BANDS[1][1]
    filters = {
        "": {},
        " dates": {"since": "2024-01", "until": "2024-12"},
        " band": {"band": band},
        " players": {"players": 4},
        " source": {"source": "human"},
        # A date range with a source or a band: neither read by month and strategy alone.
        " dates source": {"since": "2024-01", "until": "2024-12", "source": "human"},
        " dates band": {"since": "2024-01", "until": "2024-12", "band": band},
        " all filters": {
            "since": "2024-01",
            "until": "2024-12",
            "band": band,
            "players": 4,
            "source": "human",
        },
    }
    found = {"leaderboard": f"/leaderboards/{GAME}/"}
    for suffix, query in filters.items():
        found[f"per-hex{suffix}"] = f"/stats/hexes/?{urlencode(query)}"
        found[f"per-strategy{suffix}"] = f"/stats/strategies/?{urlencode({'game': GAME, **query})}"
    busiest = Player.objects.annotate(n=Count("seats")).order_by("-n").values_list("handle", "n")[0]
    found[f"player ({busiest[1]} games)"] = f"/players/{busiest[0]}/"
    # The rating chart's figure, fetched when its reader explores it (issue 25).
    found["player ratings.json"] = f"/players/{busiest[0]}/ratings.json"
    middle = Game.objects.order_by("-played_at", "-pk")[Game.objects.count() // 2]
    cursor = GameCursorPagination.cursor_of(middle)
    found["games list"] = "/games/"
    found["games list deep"] = f"/games/?{urlencode({'cursor': cursor})}"
    found["API list"] = "/api/games/"
    found["API list deep"] = f"/api/games/?{urlencode({'cursor': cursor})}"
    found["tournament"] = f"/tournaments/{DEMO_SLUG}/"
    return found


# --- serving and load ----------------------------------------------------------------------


def production_env(workdir: Path, database_url: str, tree: Path = ROOT) -> dict[str, str]:
    """DEBUG off, with static files collected into the work dir by a settings module there,
    and no page cache: every request renders its page."""
    no_cache = f"CACHES = {{'default': {{'BACKEND': {DUMMY_CACHE!r}}}}}\n"
    (workdir / "bench_settings.py").write_text(
        "from deepsea.settings import *  # noqa: F403\n"
        f"STATIC_ROOT = {str(workdir / 'static')!r}\n{no_cache}"
    )
    env = {key: value for key, value in os.environ.items() if key not in ("CELERY_BROKER_URL",)}
    env.update(
        DJANGO_SETTINGS_MODULE="bench_settings",
        PYTHONPATH=os.pathsep.join([str(workdir), str(tree)]),
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=database_url,
        CONN_MAX_AGE="60",
        LOG_LEVEL="WARNING",
    )
    return env


def start_site(env: dict[str, str], port: int, workers: int, tree: Path = ROOT) -> subprocess.Popen:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=tree, env=env, check=True,
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
        cwd=tree,
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


def first_request(url: str) -> tuple[int, int]:
    """Status and body size of one request."""
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, len(response.read())
    except urllib.error.HTTPError as error:
        return error.code, 0


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


def worker_pids(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(pid) for pid in children]


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident set (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure_pages(
    env: dict[str, str], args: argparse.Namespace, workdir: Path, tree: Path = ROOT
) -> dict:
    if shutil.which("wrk") is None:
        sys.exit("wrk is not installed: apt-get install -y wrk")
    script = workdir / "report.lua"
    script.write_text(WRK_SCRIPT)
    server = start_site(env, args.port, args.workers, tree)
    figures = {}
    try:
        for name, path in chosen(pages(), args.page).items():
            url = f"http://127.0.0.1:{args.port}{path}"
            status, size = first_request(url)
            if status != 200:
                print(f"{name}: {path} answered {status}, not measured")
                continue
            load(url, script, args.connections, 1)  # every worker has rendered it once
            figures[name] = load(url, script, args.connections, args.seconds)
            figures[name].update(kb=size / 1024, path=path)
            print(f"  {name} measured: p95 {figures[name]['p95']:.1f} ms", flush=True)
        rss = [peak_rss_mb(pid) for pid in worker_pids(server.pid)]
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    return {"pages": figures, "rss": rss}


def chosen(found: dict[str, str], prefixes: list[str] | None) -> dict[str, str]:
    """The pages whose names start with one of `prefixes` (--page), or all of them."""
    if not prefixes:
        return found
    return {name: path for name, path in found.items() if name.startswith(tuple(prefixes))}


def measure_trees(args: argparse.Namespace, workdir: Path) -> None:
    """Each --tree's code served in turn on the same database, --rounds times (A B A B ...),
    then each page's median p95 and range per tree: pairs that survive a machine's drift."""
    runs: dict[str, list[dict]] = {str(tree): [] for tree in args.tree}
    for round_number in range(args.rounds):
        for tree in args.tree:
            env = production_env(workdir, args.database_url, tree)
            print(f"round {round_number + 1}, {tree}; load {load_average()}", flush=True)
            runs[str(tree)].append(measure_pages(env, args, workdir, tree))
    print(
        f"\npages under load, trees alternated {args.rounds} times: gunicorn {args.workers} sync "
        f"workers, wrk {args.connections} connections for {args.seconds} s each, page cache "
        f"off; load average {load_average()}"
    )
    for name in runs[str(args.tree[0])][0]["pages"]:
        for tree, measured in runs.items():
            p95s = [run["pages"][name]["p95"] for run in measured if name in run["pages"]]
            medians = [run["pages"][name]["median"] for run in measured if name in run["pages"]]
            if p95s:
                print(
                    f"  {name:<28} {Path(tree).name:<12} p95 median {statistics.median(p95s):6.1f}"
                    f" ms (range {min(p95s):.1f}-{max(p95s):.1f}), median "
                    f"{statistics.median(medians):.1f} ms"
                )


# --- the report ----------------------------------------------------------------------------


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def report(games: int, building: dict, rebuild_seconds: float, measured: dict, args) -> None:
    print(f"\n{games} verified {GAME} games; load average {load_average()}")
    for name, seconds in building.items():
        print(f"{name}: {seconds:.0f} s")
    if not math.isnan(rebuild_seconds):  # not rebuilt with --pages-only
        verdict = "ok" if rebuild_seconds < REBUILD_TARGET_S else "MISSED"
        print(
            f"full statistics rebuild (rebuild_stats): {rebuild_seconds:.1f} s "
            f"(target < {REBUILD_TARGET_S} s: {verdict})"
        )
    print(
        f"pages under load: gunicorn {args.workers} sync workers, wrk {args.connections} "
        f"connections for {args.seconds} s each, loopback, page cache off"
    )
    print(
        f"  {'page':<28}{'median ms':>10}{'p95 ms':>9}{'req/s':>8}{'requests':>10}"
        f"{'errors':>8}{'KB':>7}  p95 target"
    )
    for name, f in measured["pages"].items():
        verdict = "ok" if f["p95"] < P95_TARGET_MS and not f["errors"] else "MISSED"
        print(
            f"  {name:<28}{f['median']:>10.1f}{f['p95']:>9.1f}{f['rps']:>8.1f}"
            f"{f['requests']:>10}{f['errors']:>8}{f['kb']:>7.0f}  < {P95_TARGET_MS} ms: {verdict}"
        )
    if measured["pages"]:
        p95s = [f["p95"] for f in measured["pages"].values()]
        print(
            f"  p95 over the pages: median {statistics.median(p95s):.1f} ms, "
            f"range {min(p95s):.1f}-{max(p95s):.1f} ms"
        )
    peak = max(measured["rss"], default=float("nan"))
    verdict = "ok" if peak < RSS_TARGET_MB else "MISSED"
    print(
        "web workers' peak RSS: "
        + ", ".join(f"{mb:.0f} MB" for mb in measured["rss"])
        + f" (target < {RSS_TARGET_MB} MB: {verdict})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1_000_000, help="games in the database")
    parser.add_argument(
        "--sample", type=int, default=10_000, help="distinct games simulated and verified"
    )
    parser.add_argument("--players", type=int, default=2_000, help="named players")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="skip the loading: rebuild and measure a database kept by --keep",
    )
    parser.add_argument(
        "--grow",
        action="store_true",
        help="with --reuse: first copy the kept database's games up to --games",
    )
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--port", type=int, default=8150, help="gunicorn's port")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--connections", type=int, default=4, help="concurrent wrk connections")
    parser.add_argument("--seconds", type=int, default=5, help="load per page")
    parser.add_argument(
        "--page", action="append", help="measure only pages whose names start so (repeat)"
    )
    parser.add_argument(
        "--pages-only",
        action="store_true",
        help="with --reuse --keep: measure the kept database as it is, no rebuild",
    )
    parser.add_argument(
        "--tree",
        action="append",
        type=lambda path: Path(path).resolve(),
        help="with --pages-only: serve this checkout's code (repeat: trees alternate)",
    )
    parser.add_argument("--rounds", type=int, default=1, help="with --tree: rounds of every tree")
    args = parser.parse_args()
    if args.pages_only and not (args.reuse and args.keep):
        parser.error("--pages-only measures a kept database: give --reuse --keep")
    if args.tree and not args.pages_only:
        parser.error("--tree needs --pages-only (the database is built by this tree's code)")
    if not 0 < args.sample <= args.games:
        parser.error("--sample must be between 1 and --games")
    if args.players < 4:
        parser.error("--players must seat a 4-player table")

    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "deepsea.settings"
    os.environ.pop("CELERY_BROKER_URL", None)  # verification runs in this process
    os.environ.pop("REDIS_CACHE_URL", None)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    if not args.reuse:
        create_database(args.database_url)
    import django
    from django.core.management import call_command
    from django.db import connections

    django.setup()
    from games.models import Game

    workdir = Path(tempfile.mkdtemp(prefix="stats_load-"))
    building = {}
    try:
        if args.pages_only:
            connections.close_all()
            if args.tree:
                measure_trees(args, workdir)
            else:
                measured = measure_pages(production_env(workdir, args.database_url), args, workdir)
                report(Game.objects.count(), {}, float("nan"), measured, args)
            return
        call_command("migrate", verbosity=0)
        if not args.reuse:
            started = time.perf_counter()
            load_sample(args.sample, args.players)
            building["sample simulated and verified"] = time.perf_counter() - started
            started = time.perf_counter()
            replicate(args.games)
            building[f"copied to {args.games} games"] = time.perf_counter() - started
        elif args.grow:
            started = time.perf_counter()
            replicate(args.games)
            building[f"copied on to {args.games} games"] = time.perf_counter() - started
        rebuild_seconds = rebuild()
        games = Game.objects.count()
        with connections["default"].cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        print(table_sizes(games), flush=True)
        connections.close_all()
        env = production_env(workdir, args.database_url)
        measured = measure_pages(env, args, workdir)
        report(games, building, rebuild_seconds, measured, args)
    finally:
        connections.close_all()
        shutil.rmtree(workdir, ignore_errors=True)
        if args.keep:
            print(f"kept {args.database_url}")
        else:
            drop_database(args.database_url)


if __name__ == "__main__":
    main()
