"""What the benchmarks share: their own databases (made fresh for a run, dropped after it),
waiting for a condition, and the machine's load."""

import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


def create_database(url: str) -> None:
    """A fresh database: PostgreSQL's dropped and created again, SQLite's file removed."""
    parts = urlsplit(url)
    if parts.scheme.startswith("sqlite"):
        Path(parts.path).unlink(missing_ok=True)
        return
    import psycopg

    name = parts.path.lstrip("/")
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        busy = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name]
        ).fetchone()[0]
        if busy:
            sys.exit(f"database {name} has {busy} connection(s): another run is using it")
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme.startswith("sqlite"):
        Path(parts.path).unlink(missing_ok=True)
        return
    import psycopg

    admin_url = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def wait_for(condition, timeout: float, what: str, poll: float = 0.05) -> None:
    """Poll until `condition()` holds; stop the benchmark after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            sys.exit(f"gave up waiting for {what} after {timeout:.0f} s")
        time.sleep(poll)


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())
