"""A test database's rows, and the e-mails sent meanwhile, kept and put back: for a set-up of
tens of CPU seconds that several tests start from (the every-page browser test's groups of
pages). Under pytest-xdist the first process to need it makes it and leaves it in a file of
the run for the others, whose test databases have the same tables. PostgreSQL alone (COPY):
elsewhere the set-up runs again."""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core import mail
from django.core.management.color import no_style
from django.db import connection, transaction


@dataclass
class Snapshot:
    rows: dict[str, bytes]  # each table's rows, in COPY's text format
    outbox: list


def taken() -> Snapshot:
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    rows = {}
    with connection.cursor() as cursor:
        for table in tables:
            with cursor.copy(f"COPY {connection.ops.quote_name(table)} TO STDOUT") as copy:
                rows[table] = b"".join(copy)
    return Snapshot(rows, list(mail.outbox))


def put_back(snapshot: Snapshot) -> None:
    """The tables as the snapshot found them: emptied (a transactional test's flush leaves the
    content types and permissions that post_migrate makes) and filled, the ids' sequences past
    the rows' ids; the foreign keys are checked at the commit (Django makes them deferred)."""
    tables = list(snapshot.rows)
    with transaction.atomic(), connection.cursor() as cursor:
        for statement in connection.ops.sql_flush(no_style(), tables):
            cursor.execute(statement)
        for table, rows in snapshot.rows.items():
            with cursor.copy(f"COPY {connection.ops.quote_name(table)} FROM STDIN") as copy:
                copy.write(rows)
        models = apps.get_models(include_auto_created=True)
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)
    ContentType.objects.clear_cache()  # it maps models to the ids the flush left
    mail.outbox[:] = snapshot.outbox


_kept: dict[Callable, tuple[Snapshot, Any]] = {}


def made_once_per_run[T](make: Callable[[], T], run_directory: Path) -> T:
    """`make()` the first time in this run (`run_directory`: a directory all of the run's
    processes share); later, in this process or another, the rows it left put back, and what
    it returned then. The other processes wait for the first one's file, holding no CPU."""
    if connection.vendor != "postgresql":
        return make()
    if make in _kept:
        snapshot, made = _kept[make]
        put_back(snapshot)
        return made
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # the one process of the run
        made = make()
        _kept[make] = (taken(), made)
        return made
    kept = run_directory / f"{make.__module__}.{make.__qualname__}.pickle"
    with open(kept.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not kept.exists():
            made = make()
            _kept[make] = (taken(), made)
            kept.write_bytes(pickle.dumps(_kept[make]))
            return made
        _kept[make] = pickle.loads(kept.read_bytes())
    snapshot, made = _kept[make]
    put_back(snapshot)
    return made
