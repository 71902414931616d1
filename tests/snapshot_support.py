"""A test database's rows, and the e-mails sent meanwhile, kept in memory and put back: for a
set-up of tens of CPU seconds that several tests of one process start from (the every-page
browser test's groups of pages). PostgreSQL alone (COPY): elsewhere the set-up runs again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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
        for statement in connection.ops.sql_flush(no_style(), tables, allow_cascade=True):
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


def made_once_per_process[T](make: Callable[[], T]) -> T:
    """`make()` the first time in this process; later, the rows it left put back, and what it
    returned then."""
    if connection.vendor != "postgresql":
        return make()
    if make not in _kept:
        made = make()
        _kept[make] = (taken(), made)
    snapshot, made = _kept[make]
    put_back(snapshot)
    return made
