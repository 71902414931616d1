"""A whole stack of the site's background work in real processes, for the fault tests.

Its own PostgreSQL cluster (initdb into a temporary directory, on a free port) and its own
redis-server (no persistence: a restart loses every message), so faults never touch the
machine's shared services; Celery workers and beat as `celery` processes with the DEFAULT
settings (lease, sweep interval, retries), exactly as docker/compose.yaml runs them. Logs go
in through `manage.py import_logs`; the tests read the outcome with plain SQL.

Setting up is done once per test session and copied after: every cluster is a copy of one
made by initdb, and every stack's database is loaded from a dump of one that `manage.py
migrate` built (a minute on a loaded machine, where loading the dump takes seconds). Each test
still has a cluster and a redis-server of its own, so no fault or leftover reaches another.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
from games_support import human_log
from service_support import OwnRedis, free_port, service_missing, stop

ROOT = Path(__file__).resolve().parent.parent
FINAL = ("verified", "rejected", "error")
PACED_WORKER = ROOT / "tests" / "paced_worker.py"
PLAYERS = ("Marina", "Nemo", "Coral", "Abyss", "Kelp", "Pearl", "Squid", "Urchin")


def postgresql_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        service_missing("PostgreSQL binaries: no /usr/lib/postgresql/*/bin/initdb")
    return Path(found[-1]).parent


class SessionCache:
    """What this test session set up once: a pristine cluster's directory (initdb) and the
    migrated database's dump (pg_dump, plain SQL)."""

    cluster: Path | None = None
    migrated_dump: bytes | None = None


class OwnPostgreSQL:
    """A throw-away cluster. Run as root, the server runs as the `postgres` user."""

    # A client that vanishes mid-transaction (a worker whose host was cut off) would hold its
    # row locks until TCP gives up, many minutes later; these end such a session sooner:
    # waiting for the client (idle in transaction, or keepalives on an idle link) or writing
    # to it (tcp_user_timeout, in ms). The same settings are in docker/compose.yaml.
    SESSION_TIMEOUTS = (
        "-c idle_in_transaction_session_timeout=20s -c tcp_keepalives_idle=5 "
        "-c tcp_keepalives_interval=2 -c tcp_keepalives_count=3 -c tcp_user_timeout=20000"
    )

    def __init__(self, host: str = "127.0.0.1", also_on: str | None = None) -> None:
        """`also_on`: a second address it listens on (the host end of a /30 link), trusting
        the /30's clients: workers on another host."""
        self.bin = postgresql_bin()
        self.host = host
        self.also_on = also_on
        self.port = free_port(host)
        self.dir = Path(tempfile.mkdtemp(prefix="deepsea-pg-"))
        self.as_postgres = os.geteuid() == 0
        if self.as_postgres:
            record = pwd.getpwnam("postgres")
            os.chown(self.dir, record.pw_uid, record.pw_gid)
        self.copy_pristine_cluster(self.dir / "data")
        if also_on:
            with (self.dir / "data" / "pg_hba.conf").open("a") as hba:
                hba.write(f"host all all {also_on}/30 trust\n")

    def copy_pristine_cluster(self, data: Path) -> None:
        """initdb once per session; each cluster is a copy (`cp -a` keeps the owner)."""
        if SessionCache.cluster is None:
            pristine = Path(tempfile.mkdtemp(prefix="deepsea-pg-pristine-"))
            if self.as_postgres:
                record = pwd.getpwnam("postgres")
                os.chown(pristine, record.pw_uid, record.pw_gid)
            self.run("initdb", "-D", str(pristine / "data"), "-U", "postgres", "--auth=trust", "-N")
            atexit.register(shutil.rmtree, pristine, ignore_errors=True)
            SessionCache.cluster = pristine / "data"
        subprocess.run(["cp", "-a", str(SessionCache.cluster), str(data)], check=True, timeout=120)

    def run(self, program: str, *args: str, stdin: bytes | None = None) -> bytes:
        command = [str(self.bin / program), *args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, check=True, capture_output=True, timeout=120, input=stdin)
        return done.stdout

    def start(self) -> None:
        listen = ",".join(filter(None, [self.host, self.also_on]))
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses={listen} -c fsync=off "
            + self.SESSION_TIMEOUTS
        )
        self.run("pg_ctl", "-D", str(self.dir / "data"), "-o", options, "-l",
                 str(self.dir / "log"), "-w", "start")  # fmt: skip

    def crash(self) -> None:
        """Stop at once, as a crash would: every connection dropped, no shutdown checkpoint."""
        self.run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "-w", "stop")

    def url(self, database: str, host: str | None = None) -> str:
        return f"postgres://postgres@{host or self.host}:{self.port}/{database}"

    def answers(self) -> bool:
        with psycopg.connect(self.url("postgres"), connect_timeout=2):
            return True

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
            self.run("pg_ctl", "-D", str(self.dir / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


class Stack:
    """Database (migrated), broker, workers and beat of one test."""

    def __init__(self, postgresql: OwnPostgreSQL, broker: OwnRedis, workdir: Path) -> None:
        self.postgresql, self.broker, self.workdir = postgresql, broker, workdir
        self.database = f"deepsea_{uuid.uuid4().hex[:8]}"
        self.workers: list[subprocess.Popen] = []
        self.beat: subprocess.Popen | None = None
        self.env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DATABASE_", "CELERY_", "REDIS_", "GAMES_"))
        }
        self.env.update(
            DATABASE_URL=postgresql.url(self.database),
            CELERY_BROKER_URL=broker.url(),
            REDIS_CACHE_URL=broker.url(),
            PYTHONUNBUFFERED="1",
        )

    def create(self) -> None:
        """The stack's database, migrated: by `manage.py migrate` the first time in a session,
        from that database's dump after."""
        with psycopg.connect(self.postgresql.url("postgres"), autocommit=True) as db:
            db.execute(f'CREATE DATABASE "{self.database}"')
        url = self.postgresql.url(self.database)
        if SessionCache.migrated_dump is None:
            self.manage("migrate", "--noinput")
            SessionCache.migrated_dump = self.postgresql.run("pg_dump", "--no-owner", url)
        else:
            self.postgresql.run(
                "psql", "-q", "-v", "ON_ERROR_STOP=1", url, stdin=SessionCache.migrated_dump
            )

    def manage(self, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
        done = subprocess.run(
            [sys.executable, "manage.py", *args], cwd=ROOT, env={**self.env, **(env or {})},
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done

    def celery(
        self, *args: str, env: dict | None = None, prefix: tuple = (), replay_pace: float = 0
    ) -> subprocess.Popen:
        """A `celery` process; with `replay_pace`, every log's replay that much slower
        (paced_worker.py)."""
        path = self.workdir / f"celery-{uuid.uuid4().hex[:6]}.log"
        log = path.open("w")
        if replay_pace:
            env = {**(env or {}), "REPLAY_PACE": str(replay_pace)}
        launcher = [str(PACED_WORKER)] if replay_pace else ["-m", "celery"]
        process = subprocess.Popen(
            [*prefix, sys.executable, *launcher, "-A", "deepsea", *args],
            cwd=ROOT, env={**self.env, **(env or {})}, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        process.log_path = path
        return process

    def start_worker(
        self,
        env: dict | None = None,
        prefix: tuple = (),
        loglevel: str = "WARNING",
        replay_pace: float = 0,
    ) -> subprocess.Popen:
        """A prefork worker of 2 processes, consuming every queue (no -Q, as in compose)."""
        worker = self.celery(
            "worker", "--concurrency", "2", "--loglevel", loglevel,
            "--hostname", f"fault-{uuid.uuid4().hex[:6]}@%h", env=env, prefix=prefix,
            replay_pace=replay_pace,
        )  # fmt: skip
        self.workers.append(worker)
        return worker

    def start_beat(self) -> None:
        self.beat = self.celery(
            "beat", "--loglevel", "WARNING", "--schedule", str(self.workdir / "beat-schedule")
        )

    def import_logs(self, logs: list[dict], name: str) -> subprocess.CompletedProcess:
        path = self.workdir / f"{name}.jsonl"
        path.write_text("".join(json.dumps(log) + "\n" for log in logs))
        return self.manage("import_logs", str(path))

    def send_batch(self, logs: list[dict], name: str) -> None:
        """Store a batch as a web request does (its body in the database, its reading queued
        for any worker), then delete the file it came from: nothing on this host's disk is
        left for the worker that reads it."""
        path = self.workdir / f"{name}.jsonl"
        path.write_text("".join(json.dumps(log) + "\n" for log in logs))
        self.manage(
            "shell", "-c",
            "from games.services.batch_intake import start_batch, store_body; "
            f"start_batch(store_body(open({str(path)!r}, 'rb'), expected=None), user=None)",
        )  # fmt: skip
        path.unlink()

    def query(self, sql: str) -> list[tuple]:
        with psycopg.connect(self.postgresql.url(self.database), connect_timeout=3) as db:
            return db.execute(sql).fetchall()

    def statuses(self) -> dict[str, int]:
        return dict(self.query("SELECT status, count(*) FROM games_gamelog GROUP BY status"))

    def unfinished(self) -> int:
        statuses = self.statuses()
        return sum(count for status, count in statuses.items() if status not in FINAL)

    def all_final(self, expected: int) -> bool:
        """Every log has its verdict, and the ratings have caught up with the games."""
        statuses = self.statuses()
        return (
            sum(statuses.values()) == expected
            and self.unfinished() == 0
            and self.ratings_caught_up()
        )

    def ratings_backlog(self) -> tuple[int, str | None]:
        """The games waiting for the rater, and the game types whose catch-up is due (their
        ledgers stale: ratings/services.py)."""
        [backlog] = self.query(
            "SELECT (SELECT count(*) FROM ratings_pendingrating),"
            " (SELECT string_agg(game_type, ',') FROM ratings_ratingledger WHERE stale)"
        )
        return backlog

    def ratings_caught_up(self) -> bool:
        return self.ratings_backlog() == (0, None)

    def diagnosis(self) -> str:
        """What a failed test shows: the logs without a verdict, and the processes' output."""
        stuck = self.query(
            "SELECT id, status, attempts, lease_holder, lease_expires - now(), "
            "now() - status_changed FROM games_gamelog WHERE status NOT IN "
            "('verified', 'rejected', 'error') ORDER BY id LIMIT 20"
        )
        sessions = self.query(
            "SELECT client_addr, state, wait_event_type, now() - state_change, left(query, 80) "
            "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        output = "\n".join(
            f"--- {path.name}\n{path.read_text()[-3000:]}"
            for path in sorted(self.workdir.glob("celery-*.log"))
        )
        return (
            f"statuses {self.statuses()}; first logs without a verdict:\n{stuck}\n"
            f"games waiting for the rater, stale ledgers: {self.ratings_backlog()}\n"
            "database sessions:\n" + "\n".join(map(str, sessions)) + f"\n{output}"
        )

    def stop(self) -> None:
        for process in [*self.workers, self.beat]:
            stop(process)


@contextlib.contextmanager
def running_stack(workdir: Path, also_on: str | None = None) -> Iterator[Stack]:
    """A stack of the test's own: its PostgreSQL and Redis started (listening on `also_on`
    as well, when given), its database migrated; stopped and destroyed however the test
    ends, workers first."""
    postgresql, broker = OwnPostgreSQL(also_on=also_on), OwnRedis(also_on=also_on)
    stack = Stack(postgresql, broker, workdir)
    try:
        postgresql.start()
        broker.start()
        stack.create()
        yield stack
    finally:
        stack.stop()
        broker.crash()
        postgresql.destroy()


def batch(count: int, bad: int, first_seed: int = 0) -> list[dict]:
    """`count` logs of human Deep Dive games among PLAYERS (so ratings move), the last `bad`
    of them claiming a wrong score (rejected by replay)."""
    logs = []
    for index in range(count):
        seed = first_seed + index
        names = tuple(PLAYERS[(seed + offset * 3) % len(PLAYERS)] for offset in range(3))
        log = human_log(seed=seed, names=names)
        if index >= count - bad:
            log["result"]["scores"][0] += 1
        logs.append(log)
    return logs


def assert_each_log_verified_exactly_once(stack: Stack, good: int, bad: int) -> None:
    """0 lost, 0 stuck, 0 duplicated: every log has its verdict, one Game per verified log,
    each game's seats rated once and summed once into the statistics (as pages read them:
    the seat cube with the deltas not folded yet, stats/models.py live_of)."""
    assert stack.statuses() == {"verified": good, "rejected": bad}, stack.statuses()
    [(games, seats, lined_games, changes, rated_games, summed)] = stack.query(
        """SELECT (SELECT count(*) FROM games_game),
                  (SELECT count(*) FROM games_gameseat),
                  (SELECT count(*) FROM stats_seatlines),
                  (SELECT count(*) FROM ratings_ratingchange),
                  (SELECT coalesce(sum(games), 0) FROM ratings_rating),
                  (SELECT coalesce(sum(n), 0) FROM stats_seatcubelive)"""
    )
    counted = {
        "seats": seats,
        "statistics lines (packed a game to a row)": 3 * lined_games,
        "rating changes": changes,
        "games in ratings": rated_games,
        "lines in the seat cube": summed,
    }
    assert games == good, games
    assert counted == dict.fromkeys(counted, 3 * good), counted
    assert stack.ratings_caught_up()
