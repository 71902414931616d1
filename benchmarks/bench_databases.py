"""The benchmarks' own databases: made fresh for a run, dropped after it."""

import sys
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
