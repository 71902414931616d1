"""The score cube's bins packed by key (stats.models.PACKED_SCORE_BINS): kept by the fold
and the rebuild from the tables they pack, on PostgreSQL (SQLite's pages sum the tables'
bins: stats.services.strategies.score_bin_counts).

A fold marks stale the packed row of every key its deltas touch (inserting those not packed
yet), in the statement that adds the deltas to the tables, then packs those rows again from
the tables: a packed row is always its table's bins as they are, so a fold and a rebuild
pack the same."""

from __future__ import annotations

from django.db import connection
from django.db.models import Model

from common.database import truncate
from stats.models import PACKED_SCORE_BINS


def on_postgresql() -> bool:
    return connection.vendor == "postgresql"


def key_columns(packed: type[Model]) -> list[str]:
    """The packed table's key (its table's but the score bin), quoted: the same columns in
    both tables and in the score cube's deltas."""
    return [connection.ops.quote_name(field.column) for field in packed._meta.pk_fields]


def table_name(model: type[Model]) -> str:
    return connection.ops.quote_name(model._meta.db_table)


def marked_stale(source: str) -> list[str]:
    """Statements marking stale the packed row of each key among the score cube's delta
    rows in `source` (a FROM clause, as fold_cube's), for the fold's one statement."""
    if not on_postgresql():
        return []
    statements = []
    for packed in PACKED_SCORE_BINS.values():
        keys = ", ".join(key_columns(packed))
        statements.append(
            f"INSERT INTO {table_name(packed)} ({keys}, bins, stale) "
            f"SELECT {keys}, '', true FROM {source} GROUP BY {keys} "
            f"ON CONFLICT ({keys}) DO UPDATE SET stale = true"
        )
    return statements


def packed_bins(keys: list[str]) -> str:
    """The SELECT list packing a table's bins (`t`) by key."""
    return (
        f"{', '.join(f't.{key}' for key in keys)}, "
        "string_agg(t.score_bin || ',' || t.n, ',' ORDER BY t.score_bin)"
    )


def pack_stale() -> None:
    """Pack again every stale row from its table (after the fold's statement)."""
    if not on_postgresql():
        return
    with connection.cursor() as cursor:
        for table, packed in PACKED_SCORE_BINS.items():
            keys = key_columns(packed)
            cursor.execute(
                f"UPDATE {table_name(packed)} AS p "
                "SET bins = s.bins, stale = false FROM ("
                f"SELECT {packed_bins(keys)} FROM {table_name(table)} AS t "
                f"JOIN {table_name(packed)} AS q ON "
                f"{' AND '.join(f't.{key} = q.{key}' for key in keys)} "
                f"WHERE q.stale GROUP BY {', '.join(f't.{key}' for key in keys)}"
                f") AS s ({', '.join(keys)}, bins) "
                f"WHERE {' AND '.join(f'p.{key} = s.{key}' for key in keys)}"
            )


def pack_all() -> None:
    """Every table's bins packed afresh (after a rebuild has filled the tables)."""
    if not on_postgresql():
        return
    truncate(*PACKED_SCORE_BINS.values())
    month = connection.ops.quote_name("month")
    with connection.cursor() as cursor:
        for table, packed in PACKED_SCORE_BINS.items():
            keys = key_columns(packed)
            # In month order where there are months: a date range reads a run of pages.
            in_order = f" ORDER BY t.{month}" if month in keys else ""
            cursor.execute(
                f"INSERT INTO {table_name(packed)} ({', '.join(keys)}, bins, stale) "
                f"SELECT {packed_bins(keys)}, false FROM {table_name(table)} AS t "
                f"GROUP BY {', '.join(f't.{key}' for key in keys)}{in_order}"
            )
