"""Inserting many plain rows at once, for the apps' write paths (verification, the rater).

The ORM's bulk_create builds a model instance per row and renders every value into the
statement's text: most of the time of a path that writes hundreds of rows per game. Here
rows are plain tuples, sent by a binary COPY on PostgreSQL (no text to format or parse:
floats, bytes and long strings go over as they are) and by one executemany elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection, models

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


def insert_rows(model: type[models.Model], fields: Sequence[str], rows: Iterable[tuple]) -> None:
    """Insert `rows`, each a tuple of the values of `fields` (names or attnames, e.g.
    "game_id") as the database takes them; nothing is returned."""
    table = connection.ops.quote_name(model._meta.db_table)
    columns = [model._meta.get_field(name) for name in fields]
    names = ", ".join(connection.ops.quote_name(column.column) for column in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
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
            times = [
                i
                for i, column in enumerate(columns)
                if column.get_internal_type() == "DateTimeField"
            ]
            placeholders = ", ".join(["%s"] * len(columns))
            cursor.executemany(
                f"INSERT INTO {table} ({names}) VALUES ({placeholders})", adapted(rows, times)
            )


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
    if connection.vendor != "postgresql":
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
    if connection.vendor != "postgresql":
        model.objects.bulk_create(objs)
        return
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
    attnames = [field.attname for field in fields]

    def row(obj: models.Model) -> list:
        return [
            getattr(obj, name)
            if is_plain
            else field.get_db_prep_save(getattr(obj, name), connection)
            for field, name, is_plain in zip(fields, attnames, plain, strict=True)
        ]

    insert_rows(model, attnames, (row(obj) for obj in objs))
    if with_ids:  # saved, as bulk_create leaves them
        for obj in objs:
            obj._state.adding = False
            obj._state.db = connection.alias
