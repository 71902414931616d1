"""Worker scaling: the same stored logs verified by 1, 2 and 4 Celery worker processes.

Each run stores --logs 4-player Deep Vents logs as queued (bot games from the engines'
simulate, each submitted under several sets of player names: every log distinct, stored
and replayed in full), starts N real `celery worker` processes (pool solo, the production
task: games.tasks.verify_logs_task, VERIFY_CHUNK logs a message, as a batch upload queues
them), sends the tasks and stops the clock at the last verdict, then again once the
statistics deltas are folded into the cubes (and, with --ratings, the ratings caught up).

Meanwhile a sampler polls PostgreSQL every --sample-ms: backends waiting on a lock
(pg_stat_activity wait_event_type = 'Lock') and the locks not granted (pg_locks), each
waiter attributed to the table its statement works on, so the statistics cubes, the ratings
ledger and anything else workers queue on are told apart.

--source simulated (the default) plays bots: nobody is rated, so only the statistics
receivers run besides the game's own rows. --source human names players (created as they
first play) and rates them: the ratings receivers then take their ledger lock in the same
transaction; run both to tell the two hot spots apart.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/deepsea \\
    CELERY_BROKER_URL=redis://127.0.0.1:6379/9 \\
    nice .venv/bin/python benchmarks/worker_scaling.py --logs 10000 --workers 1,2,4

It works in a database of its own (the configured name + "_scaling", created and dropped)
and queues of its own; its workers also take the default and periodic queues (the fold and
any ratings recompute go there), which it purges first: give it a Redis database number
nobody else uses. Runs go in turn (1, 2, 4, 1, 2, 4 ... with --repeats), medians printed.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench_support import load, wait_for

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")
APPS = ("games", "stats", "ratings", "players", "confirmations", "tournaments", "analysis")
TARGET = re.compile(
    r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|FROM|COPY)\s+\"?(\w+)\"?", re.IGNORECASE
)


def make_logs(count: int, distinct: int, players: int, game_id: str, source: str) -> list[str]:
    from engines import get_game
    from engines.core.log import dumps
    from engines.core.simulate import simulate

    game = get_game(game_id)
    base = list(simulate(game, game.ruleset(None), players, distinct, seed="scaling"))
    logs = []
    for index in range(count):
        log = dict(base[index % distinct])
        variant = index // distinct
        # Human players are rated: names shared by a few games each, as on a real site.
        log["players"] = [
            {**player, "name": f"{player['name']}-v{variant}"}
            if source == "simulated"
            else {"name": f"player-{(variant * players + seat) % 997}"}
            for seat, player in enumerate(log["players"])
        ]
        logs.append(dumps(log))
    return logs


def empty_tables() -> None:
    """Every table of the apps verification writes, emptied between runs."""
    from django.apps import apps
    from django.db import connection

    tables = [
        model._meta.db_table
        for model in apps.get_models()
        if model._meta.app_label in APPS and model._meta.managed
    ]
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {', '.join(f'"{t}"' for t in tables)} RESTART IDENTITY CASCADE")


def store_logs(logs: list[str], game_id: str, source: str) -> list[int]:
    """The logs stored as a batch upload stores them, queued; no task sent yet."""
    from games.models import GameLog, Upload

    upload = Upload.objects.create(source=source, filename="scaling.jsonl")
    GameLog.objects.bulk_create(
        [
            GameLog(upload=upload, line=n, raw=raw, sha256=GameLog.digest(raw), game_type=game_id)
            for n, raw in enumerate(logs, start=1)
        ],
        batch_size=1000,
    )
    return list(GameLog.objects.filter(upload=upload).order_by("pk").values_list("pk", flat=True))


def start_workers(count: int, queue: str, database_url: str) -> tuple[list, list[str]]:
    # Persistent connections, as production workers run them (README: CONN_MAX_AGE).
    env = {**os.environ, "DATABASE_URL": database_url, "CONN_MAX_AGE": "600"}
    names = [f"scaling{number}-{uuid.uuid4().hex[:6]}@bench" for number in range(count)]
    processes = [
        subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "deepsea", "worker"),
                *("-Q", f"{queue},celery,periodic", "--pool", "solo", "--loglevel", "WARNING"),
                *("--hostname", name, "--without-gossip", "--without-mingle"),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,  # the banner; warnings and errors go to stderr
            start_new_session=True,
        )
        for name in names
    ]
    return processes, names


def stop_workers(processes: list) -> None:
    for process in processes:
        os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        process.wait(timeout=60)


@dataclass
class LockSamples:
    """What the sampler saw: per sample the backends waiting on a lock, and per waiting
    statement's table how many samples found one waiting there."""

    samples: int = 0
    waiting: list[int] = field(default_factory=list)
    ungranted: list[int] = field(default_factory=list)
    by_table: Counter = field(default_factory=Counter)

    def summary(self) -> str:
        if not self.samples:
            return "no samples"
        busy = sum(1 for n in self.waiting if n)
        tables = ", ".join(f"{t} {n}" for t, n in self.by_table.most_common(6)) or "none"
        return (
            f"{self.samples} samples: a backend waiting on a lock in {busy} "
            f"({100 * busy / self.samples:.1f}%), mean {statistics.fmean(self.waiting):.2f} "
            f"waiting, max {max(self.waiting)}; pg_locks not granted mean "
            f"{statistics.fmean(self.ungranted):.2f}; waits by table: {tables}"
        )


WAITERS = """
    SELECT a.pid, a.query, l.locktype, c.relname
    FROM pg_stat_activity a
    LEFT JOIN pg_locks l ON l.pid = a.pid AND NOT l.granted
    LEFT JOIN pg_class c ON c.oid = l.relation
    WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
      AND (a.wait_event_type = 'Lock' OR l.pid IS NOT NULL)
"""


def sample_locks(conninfo: str, every: float, stop: threading.Event, into: LockSamples) -> None:
    import psycopg

    with psycopg.connect(conninfo, autocommit=True) as connection:
        while not stop.is_set():
            rows = connection.execute(WAITERS).fetchall()
            into.samples += 1
            into.waiting.append(len({pid for pid, *_ in rows}))
            into.ungranted.append(sum(1 for _, _, locktype, _ in rows if locktype))
            for _pid, query, locktype, relation in rows:
                match = TARGET.search(query or "")
                table = relation or (match.group(1) if match else "?")
                into.by_table[f"{table} ({locktype or 'waiting'})"] += 1
            stop.wait(every)


@dataclass
class Run:
    workers: int
    verdicts: float
    folded: float
    locks: LockSamples


def run_once(workers: int, logs: list[str], args, database_url: str, conninfo: str) -> Run:
    from django.core.cache import cache
    from django.db.models import Sum

    from deepsea.celery import app
    from games.models import GameLog
    from games.services.intake import VERIFY_CHUNK
    from games.tasks import verify_logs_task
    from ratings.services import behind as ratings_behind
    from stats.models import StrategyCubeRollup
    from stats.services.aggregate import CUBES, FOLD_QUEUED_KEY

    empty_tables()
    ids = store_logs(logs, args.game, args.source)
    app.control.purge()
    cache.delete(FOLD_QUEUED_KEY)  # a fold the last run's workers took down with them
    queue = f"scaling-{uuid.uuid4().hex}"
    processes, names = start_workers(workers, queue, database_url)
    locks, stop = LockSamples(), threading.Event()
    try:
        wait_for(
            lambda: (
                {h for reply in app.control.ping(names, timeout=0.5) for h in reply} >= set(names)
            ),
            120,
            "the workers to answer",
            poll=0.2,
        )
        sampler = threading.Thread(
            target=sample_locks, args=(conninfo, args.sample_ms / 1000, stop, locks)
        )
        sampler.start()
        started = time.monotonic()
        for start in range(0, len(ids), VERIFY_CHUNK):
            verify_logs_task.apply_async(args=[ids[start : start + VERIFY_CHUNK]], queue=queue)
        pending = GameLog.objects.exclude(status__in=GameLog.FINAL)
        wait_for(lambda: not pending.exists(), 3600, "the verdicts")
        verdicts = time.monotonic() - started
        stop.set()
        sampler.join()

        def caught_up() -> bool:
            if any(spec.delta.objects.exists() for spec in CUBES):
                return False
            return not ratings_behind()

        wait_for(caught_up, 600, "the fold (and ratings)")
        folded = time.monotonic() - started
    finally:
        stop.set()
        stop_workers(processes)
    statuses = Counter(GameLog.objects.values_list("status", flat=True))
    if statuses.get(GameLog.Status.VERIFIED, 0) != len(ids):
        sys.exit(f"not every log verified: {dict(statuses)}")
    seats = StrategyCubeRollup.objects.aggregate(n=Sum("n"))["n"]
    if seats != len(ids) * args.players:  # the folded cubes hold every seat once
        sys.exit(f"the cubes count {seats} seats, not {len(ids) * args.players}")
    return Run(workers, verdicts, folded, locks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", type=int, default=10_000, help="Logs per run (10,000).")
    parser.add_argument("--distinct", type=int, default=500, help="Games simulated (500).")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="deep-vents")
    parser.add_argument("--workers", default="1,2,4", help="Worker processes per run, in turn.")
    parser.add_argument("--repeats", type=int, default=1, help="Rounds of every worker count.")
    parser.add_argument("--source", choices=("simulated", "human"), default="simulated")
    parser.add_argument("--sample-ms", type=float, default=20, help="Lock sampling period.")
    args = parser.parse_args()
    counts = [int(n) for n in args.workers.split(",")]

    import django
    from django.conf import settings

    django.setup()
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        sys.exit("set DATABASE_URL to a PostgreSQL database")
    if not settings.CELERY_BROKER_URL or settings.CELERY_TASK_ALWAYS_EAGER:
        sys.exit("set CELERY_BROKER_URL to a Redis server")

    from django.db import connection

    bench_db = f"{connection.settings_dict['NAME']}_scaling"
    connection.settings_dict["TEST"]["NAME"] = bench_db
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    db = connection.settings_dict
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    database_url = f"postgres://{db['USER']}:{db['PASSWORD']}@{host}:{port}/{db['NAME']}"
    conninfo = f"host={host} port={port} user={db['USER']} dbname={db['NAME']}" + (
        f" password={db['PASSWORD']}" if db["PASSWORD"] else ""
    )
    try:
        print(
            f"simulating {args.distinct} {args.players}-player {args.game} games for "
            f"{args.logs} {args.source} logs ... (load {load()})",
            flush=True,
        )
        logs = make_logs(args.logs, args.distinct, args.players, args.game, args.source)
        runs: list[Run] = []
        for _ in range(args.repeats):
            for workers in counts:
                run = run_once(workers, logs, args, database_url, conninfo)
                runs.append(run)
                print(
                    f"{workers} worker(s): {args.logs / run.verdicts:.1f} logs/s to the last "
                    f"verdict ({run.verdicts:.1f} s), {args.logs / run.folded:.1f} logs/s "
                    f"folded{' and rated' if args.source == 'human' else ''} "
                    f"({run.folded:.1f} s); load {load()}\n    locks: {run.locks.summary()}",
                    flush=True,
                )
    finally:
        connection.creation.destroy_test_db(bench_db, verbosity=0)

    rate = {
        n: statistics.median(args.logs / r.verdicts for r in runs if r.workers == n) for n in counts
    }
    print(f"\nmedians ({args.repeats} round(s), {args.source} logs), load {load()}:")
    for n in counts:
        rates = [args.logs / r.verdicts for r in runs if r.workers == n]
        print(f"  {n} worker(s): {rate[n]:.1f} logs/s (range {min(rates):.1f}-{max(rates):.1f})")
    if 1 in rate:
        for n in counts:
            if n != 1:
                target = " (target: >= 1.8x)" if n == 2 else ""
                print(f"  {n} vs 1 workers: {rate[n] / rate[1]:.2f}x{target}")
    print(f"  CPU cores: {os.cpu_count()}")


if __name__ == "__main__":
    main()
