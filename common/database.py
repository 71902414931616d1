"""What the site asks of its database where PostgreSQL and SQLite are best asked
differently: each operation holds both forms side by side, and says why they differ. The
apps call these and never test the vendor (migrations and benchmarks aside).

Inserting many plain rows at once, for the apps' write paths (verification, the rater):
the ORM's bulk_create builds a model instance per row and renders every value into the
statement's text, most of the time of a path that writes hundreds of rows per game. Here
rows are plain tuples, sent by a binary COPY on PostgreSQL (no text to format or parse:
floats, bytes and long strings go over as they are) and by one executemany elsewhere.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import orjson
from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection, models
from django.db.models import F, Lookup, OuterRef, QuerySet, Window
from django.db.models.functions import RowNumber


def postgresql() -> bool:
    """Whether the default database is PostgreSQL (else SQLite); for this module only."""
    return connection.vendor == "postgresql"


# Fields whose Python value is what the database takes: no get_db_prep_save per row.
PLAIN_FIELDS = (
    models.AutoField,
    models.BigAutoField,
    models.BigIntegerField,
    models.BooleanField,
    models.CharField,
    models.FloatField,
    models.ForeignKey,
    models.IntegerField,
    models.PositiveIntegerField,
    models.PositiveSmallIntegerField,
    models.SmallIntegerField,
    models.TextField,
)


class AnyOf(Lookup):
    """`field IN (values)` with the values as one parameter: `= ANY(%s)` with an array on
    PostgreSQL, a JSON array's elements (json_each) on SQLite. Django's `__in` prepares,
    renders and quotes a placeholder per value; a verified group's queries name some two
    hundred players or fifty games each, and that was most of their time (issue 25). The
    values go as they are: whole numbers or strings, as the field's column takes them."""

    lookup_name = "any_of"
    prepare_rhs = False

    def get_prep_lookup(self) -> list:
        return list(self.rhs)

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, tuple]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        if connection.vendor == "postgresql":
            return f"{lhs} = ANY(%s)", (*lhs_params, self.rhs)
        return f"{lhs} IN (SELECT value FROM json_each(%s))", (*lhs_params, json.dumps(self.rhs))


def any_of(field: str, values: Collection[int] | Collection[str]) -> AnyOf:
    """A filter: the rows whose `field` (a name or attname, e.g. "player_id") is among
    `values`, as `field__in=values` but sent as one parameter (AnyOf)."""
    return AnyOf(F(field), values)


def insert_rows(model: type[models.Model], fields: Sequence[str], rows: Iterable[tuple]) -> None:
    """Insert `rows`, each a tuple of the values of `fields` (names or attnames, e.g.
    "game_id") as the database takes them; nothing is returned."""
    table = connection.ops.quote_name(model._meta.db_table)
    columns = [model._meta.get_field(name) for name in fields]
    names = ", ".join(connection.ops.quote_name(column.column) for column in columns)
    with connection.cursor() as cursor:
        if postgresql():
            # Django's errors, as execute() raises them: a COPY goes past its wrapper, and an
            # outage must reach the tasks as the OperationalError they retry after.
            with (
                connection.wrap_database_errors,
                cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN (FORMAT BINARY)") as copy,
            ):
                # "varchar(40)" -> "varchar": the binary format needs each column's type
                copy.set_types([column.db_type(connection).split("(")[0] for column in columns])
                for row in rows:
                    copy.write_row(row)
        else:
            _insert_each(cursor, table, names, columns, rows)


def _insert_each(
    cursor: Any, table: str, names: str, columns: list, rows: Iterable[tuple], tail: str = ""
) -> None:
    """SQLite's insert: one executemany of `INSERT ... VALUES (...) tail`, datetimes adapted."""
    times = [i for i, column in enumerate(columns) if column.get_internal_type() == "DateTimeField"]
    placeholders = ", ".join(["%s"] * len(columns))
    cursor.executemany(
        f"INSERT INTO {table} ({names}) VALUES ({placeholders}) {tail}", adapted(rows, times)
    )


def upsert_rows(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Sequence[tuple],
    *,
    unique: Sequence[str],
    update: Sequence[str],
) -> None:
    """Insert `rows` (as insert_rows takes them), and where a row's `unique` fields match a
    stored row, set that row's `update` fields to the new values instead: bulk_create's
    update_conflicts without a model instance per row or every value rendered into the
    statement (the rater's upsert of a group's ~140 ratings spent half its time there).
    PostgreSQL takes the rows as one JSON array of arrays, written by orjson in C (a text
    array a column cost psycopg a Python call a value: 3.6 ms of CPU for 140 ratings), each
    value read back as its column's type: a float written in its shortest form that reads
    back exactly, a datetime with its offset, to the microsecond. Not for values JSON does
    not hold (bytes, NaN). SQLite takes one executemany of the same upsert."""
    if not rows:
        return
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    columns = [model._meta.get_field(name) for name in fields]
    names = ", ".join(quote(column.column) for column in columns)
    conflict = ", ".join(quote(model._meta.get_field(name).column) for name in unique)
    updates = ", ".join(
        f"{quote(column)} = EXCLUDED.{quote(column)}"
        for column in (model._meta.get_field(name).column for name in update)
    )
    on_conflict = f"ON CONFLICT ({conflict}) DO UPDATE SET {updates}"
    with connection.cursor() as cursor:
        if postgresql():
            values = ", ".join(
                f"(row->>{i})::{column.db_type(connection)}" for i, column in enumerate(columns)
            )
            cursor.execute(
                f"INSERT INTO {table} ({names}) SELECT {values} "
                f"FROM json_array_elements(%s::json) AS row {on_conflict}",
                [orjson.dumps(rows).decode()],
            )
        else:
            _insert_each(cursor, table, names, columns, rows, on_conflict)


def adapted(rows: Iterable[tuple], times: list[int]) -> Iterable[tuple]:
    """The rows with their datetimes as the database takes them; a game's rows come together
    and share one datetime, adapted once."""
    adapt = connection.ops.adapt_datetimefield_value
    memo: dict[object, object] = {}
    for row in rows:
        row = list(row)
        for i in times:
            value = row[i]
            if value not in memo:
                if len(memo) > 1000:
                    memo.clear()
                memo[value] = adapt(value)
            row[i] = memo[value]
        yield tuple(row)


def reserve_ids(model: type[models.Model], count: int) -> list[int] | None:
    """`count` new primary keys of the model's table, taken from its sequence on PostgreSQL
    (so rows that others point to can be inserted by COPY with their ids); None elsewhere,
    where the caller inserts with the ORM, which returns them."""
    if not postgresql():
        return None
    if not count:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [connection.ops.quote_name(model._meta.db_table), model._meta.pk.column, count],
        )
        return [row[0] for row in cursor.fetchall()]


def insert_instances(
    model: type[models.Model], objs: list[models.Model], *, with_ids: bool = True
) -> None:
    """bulk_create for the write paths, by binary COPY on PostgreSQL. `with_ids`: each
    instance gets its primary key (from the sequence, before its row is sent), as
    bulk_create gives them; otherwise the instances keep none (read the rows back if need
    be). Elsewhere this is bulk_create."""
    if not objs:
        return
    if not postgresql():
        model.objects.bulk_create(objs)
        return
    # A composite key is the instances' own columns: nothing to take from a sequence.
    with_ids = with_ids and not model._meta.is_composite_pk
    fields = [field for field in model._meta.concrete_fields if with_ids or not field.primary_key]
    if with_ids:
        for obj, pk in zip(objs, reserve_ids(model, len(objs)), strict=True):
            obj.pk = pk
    stamped = [
        field
        for field in fields
        if getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)
    ]
    for obj in objs:
        for field in stamped:
            field.pre_save(obj, add=True)
    plain = [type(field) in PLAIN_FIELDS for field in fields]
    moments = [type(field) is models.DateTimeField for field in fields]
    attnames = [field.attname for field in fields]

    def value(field: models.Field, name: str, is_plain: bool, moment: bool, obj: models.Model):
        found = getattr(obj, name)
        if is_plain or (moment and (found is None or getattr(found, "tzinfo", None))):
            # An aware datetime is what PostgreSQL's timestamptz takes (USE_TZ): Django's
            # preparing took 6 us a value, some seven a verified log (issue 25).
            return found
        return field.get_db_prep_save(found, connection)

    def row(obj: models.Model) -> list:
        return [
            value(field, name, is_plain, moment, obj)
            for field, name, is_plain, moment in zip(fields, attnames, plain, moments, strict=True)
        ]

    insert_rows(model, attnames, (row(obj) for obj in objs))
    if with_ids:  # saved, as bulk_create leaves them
        for obj in objs:
            obj._state.adding = False
            obj._state.db = connection.alias


# --- emptying, locking, moving rows ------------------------------------------------------


def truncate(*models_: type[models.Model]) -> None:
    """Delete every row of these tables at once. PostgreSQL's TRUNCATE (transactional
    there) leaves no dead rows, whose keys would stay in the unique indexes until the
    commit and be checked by each row inserted again (refilling four times slower);
    SQLite has no TRUNCATE, and its DELETE without a condition empties the table as fast.
    No signals, no cascades: for tables nothing points to."""
    tables = [connection.ops.quote_name(model._meta.db_table) for model in models_]
    with connection.cursor() as cursor:
        if postgresql():
            cursor.execute(f"TRUNCATE {', '.join(tables)}")
            return
        for table in tables:
            cursor.execute(f"DELETE FROM {table}")


def try_lock(key: int, shared: bool = False) -> bool:
    """Take the lock `key` until the transaction ends, or False at once when another
    transaction holds it (`shared`: holds it exclusively). PostgreSQL's transaction-level
    advisory lock; SQLite writes one transaction at a time, so holding the write is holding
    every lock: always True."""
    if not postgresql():
        return True
    function = "pg_try_advisory_xact_lock_shared" if shared else "pg_try_advisory_xact_lock"
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {function}(%s)", [key])
        return cursor.fetchone()[0]


def hold_lock(key: int, shared: bool = False) -> None:
    """Take the lock `key` until the transaction ends, waiting for a transaction that holds
    it (try_lock, waiting: nothing to do on SQLite, which writes one transaction at a time).
    Shared holders wait only for an exclusive one, and it for them."""
    if postgresql():
        with connection.cursor() as cursor:
            function = "pg_advisory_xact_lock_shared" if shared else "pg_advisory_xact_lock"
            cursor.execute(f"SELECT {function}(%s)", [key])


def drain(table: str, columns: Sequence[str], into: Callable[[str], list[str]]) -> int:
    """Delete every row of `table` (quoted, with an integer `id`) and run the statements
    `into(source)` over them, `source` being a FROM clause that yields those rows'
    `columns` (quoted); the rows moved. On PostgreSQL one statement, one snapshot: the rows
    deleted are the rows the statements read, while others keep appending. SQLite has no
    data-modifying WITH; it writes one transaction at a time, so the rows up to the largest
    id are the same rows from the first statement to the delete."""
    with connection.cursor() as cursor:
        if postgresql():
            statements = "".join(
                f"into_{i} AS ({statement}), " for i, statement in enumerate(into("moved"))
            )
            cursor.execute(
                f"WITH moved AS (DELETE FROM {table} RETURNING {', '.join(columns)}), "
                f"{statements.removesuffix(', ')} SELECT COUNT(*) FROM moved"
            )
            (moved,) = cursor.fetchone()
            return moved
        cursor.execute(f"SELECT MAX(id) FROM {table}")
        (last,) = cursor.fetchone()
        if last is None:
            return 0
        for statement in into(f"{table} WHERE id <= {int(last)}"):
            cursor.execute(statement)
        cursor.execute(f"DELETE FROM {table} WHERE id <= %s", [last])
        return cursor.rowcount


# --- reading ------------------------------------------------------------------------------


def newest_per_group(
    rows: QuerySet, *, group: str, value: str, order_by: list, count: int, groups: QuerySet
) -> dict[Any, list]:
    """The `value` of the newest `count` rows of each group, newest first, as
    {group key: values}: `rows` ordered by `order_by` (newest first), grouped by their
    field `group`, for the groups whose `group` field is in `groups` (a values list
    queryset of that field). On PostgreSQL an index scan of `count` rows per group, in an
    array subquery (5 ms at 80,000 rating changes, against 100 ms for the window);
    SQLite has no arrays: one window over the groups' rows."""
    if postgresql():
        newest = rows.filter(**{group: OuterRef(group)}).order_by(*order_by).values(value)[:count]
        return dict(
            groups.order_by().annotate(newest=ArraySubquery(newest)).values_list(group, "newest")
        )
    ranked = (
        rows.filter(**{f"{group}__in": groups})
        .annotate(recency=Window(RowNumber(), partition_by=F(group), order_by=order_by))
        .filter(recency__lte=count)
        .order_by(group, "recency")
        .values_list(group, value)
    )
    newest: dict[Any, list] = {}
    for key, item in ranked:
        newest.setdefault(key, []).append(item)
    return newest


# --- indexes ------------------------------------------------------------------------------


@contextmanager
def indexes_built_after(model: type[models.Model]) -> Iterator[None]:
    """Rewrite most of a table without its indexes, then build them again (same names, same
    definitions): building an index over 400,000 rows takes a fraction of keeping it up to
    date row by row (PostgreSQL's advice for loading data). On PostgreSQL this locks the
    table against readers too until the commit. PostgreSQL's catalogs list the primary and
    unique keys (dropped and added again, with their indexes) apart from the other
    indexes; SQLite keeps its primary and unique keys' indexes (they cannot be dropped),
    and sqlite_master lists the others with the SQL that made them."""
    table = model._meta.db_table
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        if postgresql():
            cursor.execute(
                "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                "WHERE conrelid = %s::regclass AND contype IN ('p', 'u')",
                [table],
            )
            constraints = cursor.fetchall()
            cursor.execute(
                "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() "
                "AND tablename = %s AND indexname NOT IN "
                "(SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass)",
                [table, table],
            )
        else:
            constraints = []
            cursor.execute(
                "SELECT name, sql FROM sqlite_master "
                "WHERE type = 'index' AND tbl_name = %s AND sql IS NOT NULL",
                [table],
            )
        indexes = cursor.fetchall()
        for name, _ in constraints:
            cursor.execute(f"ALTER TABLE {quote(table)} DROP CONSTRAINT {quote(name)}")
        for name, _ in indexes:
            cursor.execute(f"DROP INDEX {quote(name)}")
    yield
    with connection.cursor() as cursor:
        for _, definition in indexes:
            cursor.execute(definition)
        for name, definition in constraints:
            cursor.execute(f"ALTER TABLE {quote(table)} ADD CONSTRAINT {quote(name)} {definition}")
