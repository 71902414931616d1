"""Inserting many plain rows at once, for the apps' write paths (verification, the rater).

The ORM's bulk_create builds a model instance per row and renders every value into the
statement's text: most of the time of a path that writes hundreds of rows per game. Here
rows are plain tuples, sent by a binary COPY on PostgreSQL (no text to format or parse:
floats, bytes and long strings go over as they are) and by one executemany elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import connection, models


def insert_rows(model: type[models.Model], fields: Sequence[str], rows: Iterable[tuple]) -> None:
    """Insert `rows`, each a tuple of the values of `fields` (names or attnames, e.g.
    "game_id") as the database takes them; nothing is returned."""
    table = connection.ops.quote_name(model._meta.db_table)
    columns = [model._meta.get_field(name) for name in fields]
    names = ", ".join(connection.ops.quote_name(column.column) for column in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN (FORMAT BINARY)") as copy:
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
