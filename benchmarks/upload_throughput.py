"""End to end: a JSON Lines batch of 4-player Deep Vents logs POSTed over HTTP to gunicorn,
read and verified by Celery workers on PostgreSQL and Redis, as deployed.

Prints logs verified per second from the start of the request to the last verdict (and to
the end of the ratings recompute that games verified out of order queue), the median and
95th percentile time from the start of the request to each log's verdict, the CPU per log
of the web and worker processes together (from /proc, the database server's excluded)
against a lower bound measured in the same run on the same logs, in this process: parse,
replay with facts, compress the log, and one COPY of the rows a verified game stores at the
least (its compressed log, the game and its seats), and
the database connections opened meanwhile (pg_stat_database.sessions).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/deepsea \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/9 \\
    .venv/bin/python benchmarks/upload_throughput.py [--logs 10000] [--workers 2]

It works in a database of its own (DATABASE_URL's name + _bench, or --database; created and
dropped: never name one in use)
and on the real queue names in the Redis database given, which it purges first: give it one
nobody else uses. The logs are bot games (engines.core.simulate), cached in the temp
directory (simulating is not what is measured); --distinct N simulates only N games and
submits each under other player names (every log distinct, the same replay work).
Targets (issue 14): at least 300 logs/s with 2 workers, CPU per log within 1.5x the bound.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench_support import wait_for

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")
BIN = Path(sys.executable).parent
GAME = "deep-vents"
PLAYERS = 4
NAME_POOL = 400  # players the games are dealt among (ratings and stats see real spread)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
FINAL = ("verified", "rejected", "error")


def add_stack_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=int, default=2, help="Celery workers (solo pool).")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn worker processes.")
    parser.add_argument("--port", type=int, default=8140)
    parser.add_argument(
        "--database", help="Database created and dropped (default: DATABASE_URL's + _bench)."
    )
    parser.add_argument("--conn-max-age", default="600", help="CONN_MAX_AGE of web and workers.")


def bot_games(count: int, seed: str) -> list[str]:
    """`count` simulated 4-player Deep Vents logs (JSON texts), written once to the temp
    directory and read back on later runs."""
    path = Path(tempfile.gettempdir()) / f"deepsea-bench-{GAME}-{PLAYERS}p-{count}-{seed}.jsonl"
    if not path.exists():
        from engines import get_game
        from engines.core.log import dumps
        from engines.core.simulate import simulate

        print(f"simulating {count} {GAME} games (cached in {path}) ...", flush=True)
        game = get_game(GAME)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        with partial.open("w", encoding="utf-8") as out:
            for log in simulate(game, game.ruleset(None), PLAYERS, count, seed):
                out.write(dumps(log) + "\n")
        partial.rename(path)
    return path.read_text(encoding="utf-8").splitlines()


def deep_vents_logs(count: int, distinct: int | None, seed: str, tag: str) -> list[bytes]:
    """`count` distinct logs (own SHA-256 each): bot games whose seats are dealt names from a
    pool, `tag` in every name keeping runs and kinds of upload apart."""
    games = bot_games(distinct or count, seed)
    deal = random.Random(f"{seed}-{tag}")
    logs = []
    for index in range(count):
        log = json.loads(games[index % len(games)])
        names = deal.sample(range(NAME_POOL), PLAYERS)
        variant = index // len(games)
        log["players"] = [
            {**player, "name": f"{tag} diver {name}" + (f" v{variant}" if variant else "")}
            for player, name in zip(log["players"], names, strict=True)
        ]
        logs.append(json.dumps(log, separators=(",", ":")).encode())
    return logs


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and of its live descendants, from /proc."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (FileNotFoundError, ProcessLookupError):
        return total
    return total + sum(cpu_seconds(int(child)) for child in children)


def peak_rss_mb(pid: int) -> float:
    """The largest peak resident memory (VmHWM) of a process and its live descendants."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    peak = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM"))
    return max([peak / 1024, *(peak_rss_mb(int(child)) for child in children)])


@dataclass
class Stack:
    """gunicorn and Celery workers serving a fresh database, with a staff user's token."""

    url: str
    port: int
    token: str
    database: str
    processes: list[subprocess.Popen] = field(default_factory=list)

    def cpu(self) -> tuple[float, float]:
        """CPU seconds so far of the web processes (gunicorn's) and of the workers."""
        web, *workers = self.processes
        return cpu_seconds(web.pid), sum(cpu_seconds(worker.pid) for worker in workers)

    def peak_memory(self) -> tuple[float, float]:
        """MB: the largest peak of a web process (gunicorn's master or a worker) and of a
        Celery worker."""
        web, *workers = self.processes
        return peak_rss_mb(web.pid), max(peak_rss_mb(worker.pid) for worker in workers)

    def sessions(self) -> int:
        """Connections opened to the database so far (PostgreSQL counts them)."""
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT sessions FROM pg_stat_database WHERE datname = %s", [self.database]
            )
            return cursor.fetchone()[0]

    def backends(self) -> int:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            return cursor.fetchone()[0]

    def post(self, path: str, body: bytes, content_type: str) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        try:
            connection.request(
                "POST",
                path,
                body=body,
                headers={
                    "Authorization": f"Token {self.token}",
                    "Content-Type": content_type,
                    "Host": "127.0.0.1",
                },
            )
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"{}")
        finally:
            connection.close()


@contextmanager
def running_stack(args: argparse.Namespace) -> Iterator[Stack]:
    """A fresh database (migrated), gunicorn and `args.workers` workers on the real queues."""
    import django
    from django.conf import settings

    django.setup()
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        sys.exit("set DATABASE_URL to a PostgreSQL database")
    if not (settings.CELERY_BROKER_URL or "").startswith("redis://"):
        sys.exit("set CELERY_BROKER_URL to a Redis database nobody else uses")

    from django.contrib.auth import get_user_model
    from django.db import connection
    from rest_framework.authtoken.models import Token

    from deepsea.celery import app

    args.database = args.database or f"{connection.settings_dict['NAME']}_bench"
    connection.settings_dict["TEST"]["NAME"] = args.database
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    db = connection.settings_dict
    user = get_user_model().objects.create_user(f"bench-{uuid.uuid4().hex[:6]}", is_staff=True)
    token = Token.objects.create(user=user).key
    app.control.purge()  # leftovers of an earlier run, in every queue of CELERY_TASK_QUEUES
    scratch = Path(tempfile.mkdtemp(prefix="deepsea-bench-"))
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"},
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}"
        f":{db['PORT'] or 5432}/{db['NAME']}",
        "CONN_MAX_AGE": args.conn_max_age,
        "DEBUG": "false",  # as deployed: DEBUG keeps every query's SQL in memory
        "SECRET_KEY": uuid.uuid4().hex * 2,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "UPLOADS_PER_HOUR": "1000000000",  # bulk loads, not the throttle, are measured
        "LOG_LEVEL": "WARNING",
    }
    stack = Stack(f"http://127.0.0.1:{args.port}", args.port, token, args.database)
    output = (scratch / "processes.log").open("w")  # the servers' output, shown on failure
    print(f"gunicorn and workers write to {output.name}", flush=True)
    start = dict(cwd=ROOT, env=env, start_new_session=True, stdout=output, stderr=output)
    gunicorn = [str(BIN / "gunicorn"), "deepsea.wsgi", "--bind", f"127.0.0.1:{args.port}",
                "--workers", str(args.web_workers), "--log-level", "warning"]  # fmt: skip
    # No -Q: every queue of CELERY_TASK_QUEUES, the interactive one first, as deployed.
    worker = [str(BIN / "celery"), "-A", "deepsea", "worker", "--pool", "solo",
              "--loglevel", "WARNING", "--without-gossip", "--without-mingle"]  # fmt: skip
    try:
        stack.processes.append(subprocess.Popen(gunicorn, **start))
        for number in range(args.workers):
            hostname = f"bench{number}-{uuid.uuid4().hex[:6]}@%h"
            stack.processes.append(subprocess.Popen([*worker, "--hostname", hostname], **start))
        wait_for(lambda: len(app.control.inspect(timeout=1).ping() or {}) >= args.workers,
                 120, "the workers")  # fmt: skip
        wait_for(lambda: answers(stack), 60, "gunicorn")
        yield stack
    finally:
        for process in stack.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in stack.processes:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        output.close()
        if sys.exc_info()[0] is None:
            for leftover in scratch.iterdir():
                leftover.unlink()
            scratch.rmdir()
        connection.creation.destroy_test_db(args.database, verbosity=0)


def answers(stack: Stack) -> bool:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", stack.port, timeout=5)
        connection.request("GET", "/api/games/?page_size=1", headers={"Host": "127.0.0.1"})
        return connection.getresponse().status < 500
    except OSError:
        return False


def verdict_times(upload_id: int) -> list[float]:
    """When each log of the upload got its verdict (seconds since the epoch)."""
    from games.models import GameLog

    return sorted(
        moment.timestamp()
        for moment in GameLog.objects.filter(
            upload_id=upload_id, verified_at__isnull=False
        ).values_list("verified_at", flat=True)
    )


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def lower_bound_cpu(logs: list[bytes]) -> float:
    """CPU seconds, in this process, to parse and replay the logs with facts (the statistics
    are drawn from them), compress each log as it is stored, and COPY the rows a verified
    game stores at the least (its compressed log, a game row, a row per seat) into temporary
    tables, once for all: what any verifier must do, without the product's bookkeeping. The
    facts are replayed, not written: the product no longer stores them."""
    from django.db import connection
    from psycopg.types.json import Jsonb

    import engines
    from engines.core.log import loads
    from games import log_dictionary

    started = time.process_time()
    games, seats = [], []
    for number, raw in enumerate(logs):
        parsed = loads(raw)
        replayed = engines.replay(parsed, collect_facts=True, detail_facts=False)
        ruleset, outcome = replayed.ruleset, replayed.outcome
        games.append(
            (number, log_dictionary.LOGS.compress(raw), replayed.game.id,
             ruleset.name, Jsonb(dict(ruleset.options)), ruleset.edition,
             len(parsed["players"]), "human", replayed.outcome.termination)
        )  # fmt: skip
        summaries = replayed.game.seat_summary(replayed.state)
        for seat, entry in enumerate(parsed["players"]):
            summary = summaries.get(seat)
            seats.append(
                (number, seat, entry["name"], entry.get("strategy", ""), outcome.scores[seat],
                 outcome.ranks[seat], seat in outcome.winners,
                 None if summary is None else Jsonb(summary))
            )  # fmt: skip
    connection.ensure_connection()
    with connection.connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE bound_game (log integer, raw bytea, game_type text, "
            "ruleset text, ruleset_options jsonb, edition text, player_count integer, "
            "source text, termination text)"
        )
        cursor.execute(
            "CREATE TEMP TABLE bound_seat (log integer, seat integer, name text, "
            "strategy text, score integer, rank integer, winner boolean, summary jsonb)"
        )
        for table, rows in (("bound_game", games), ("bound_seat", seats)):
            with cursor.copy(f"COPY {table} FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        cursor.execute("DROP TABLE bound_game, bound_seat")
    connection.connection.commit()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, help="Games simulated (default: --logs).")
    parser.add_argument("--seed", default="bench")
    add_stack_arguments(parser)
    args = parser.parse_args()

    logs = deep_vents_logs(args.logs, args.distinct, args.seed, tag="batch")
    batch = b"\n".join(logs) + b"\n"
    with running_stack(args) as stack:
        from games.models import GameLog, Upload
        from ratings.services import behind as ratings_behind

        bounds = [lower_bound_cpu(logs)]
        sessions, cpu = stack.sessions(), stack.cpu()
        started_at, started = time.time(), time.monotonic()
        status, answer = stack.post("/api/uploads/", batch, "application/jsonl")
        stored_in = time.monotonic() - started
        assert status == 202, answer
        upload = Upload.objects.get(pk=answer["id"])
        print(f"batch of {len(batch) / 1e6:.1f} MB stored in {stored_in:.1f} s (202)", flush=True)
        logs_of = GameLog.objects.filter(upload=upload)
        wait_for(lambda: logs_of.count() == args.logs, 3600, "the batch's reading")
        wait_for(lambda: logs_of.filter(status__in=FINAL).count() == args.logs, 3600, "verdicts")
        verdicts_at = time.monotonic()
        wait_for(lambda: not ratings_behind(), 3600, "ratings")
        finished = time.monotonic()
        (web_after, workers_after), (web_before, workers_before) = stack.cpu(), cpu
        web_cpu, worker_cpu = web_after - web_before, workers_after - workers_before
        web_peak, worker_peak = stack.peak_memory()
        time.sleep(1.5)  # a backend's session count reaches pg_stat_database within a second
        opened = stack.sessions() - sessions
        backends = stack.backends()
        outcomes = dict.fromkeys(FINAL, 0)
        for state in logs_of.values_list("status", flat=True):
            outcomes[state] += 1
        latencies = [moment - started_at for moment in verdict_times(upload.pk)]
        bounds.append(lower_bound_cpu(logs))

    wall = latencies[-1]
    bound = statistics.median(bounds) / args.logs
    per_log = (web_cpu + worker_cpu) / args.logs
    load = os.getloadavg()
    print(f"verdicts: {outcomes}")
    print(
        f"end to end: {args.logs / wall:.0f} logs/s ({args.logs} logs, last verdict "
        f"{wall:.1f} s after the request started; {args.workers} workers, "
        f"{args.web_workers} gunicorn workers)"
    )
    print(
        f"ratings caught up {finished - started:.1f} s after the request started "
        f"(the last verdict was seen after {verdicts_at - started:.1f} s)"
    )
    print(
        f"request start to verdict: median {statistics.median(latencies):.2f} s, "
        f"p95 {p95(latencies):.2f} s"
    )
    print(
        f"CPU per log: {1000 * per_log:.2f} ms (web {1000 * web_cpu / args.logs:.2f} + "
        f"workers {1000 * worker_cpu / args.logs:.2f}); lower bound (parse + replay "
        f"with facts + compress + one COPY) {1000 * bound:.2f} ms "
        f"(runs {', '.join(f'{1000 * b / args.logs:.2f}' for b in bounds)}); "
        f"ratio {per_log / bound:.2f}x"
    )
    print(
        f"database connections opened during the run: {opened} "
        f"(CONN_MAX_AGE={args.conn_max_age}); open at the end: {backends}"
    )
    print(
        f"peak resident memory: largest web process {web_peak:.0f} MB, largest Celery worker "
        f"{worker_peak:.0f} MB"
    )
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
