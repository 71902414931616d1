"""What migrations adding a table by month share: fill it from its cube, in month order, and
create its live view (the table's rows and its cube's deltas not folded yet); and what those
counting a cube's par in whole numbers share (retype_par)."""

from collections.abc import Sequence


def fill_and_create_view(apps, schema_editor, cube_name: str, table_name: str) -> None:
    quote = schema_editor.quote_name
    cube = apps.get_model("stats", cube_name)
    table = apps.get_model("stats", table_name)
    delta = apps.get_model("stats", f"{cube_name}Delta")
    view = apps.get_model("stats", f"{table_name}Live")
    columns = [f.column for f in table._meta.concrete_fields if f.name != "id"]
    (key,) = table._meta.constraints
    keys = [quote(table._meta.get_field(name).column) for name in key.fields]
    counters = [quote(c) for c in columns if quote(c) not in keys]
    # Its pages full (not fillfactor 50 as the cubes, migration 0003, whose fold updates then
    # stay on their row's page): a few rows a month, where bytes a game count more than a
    # fold's index entries (benchmarks/storage_per_game.py: the score table 44 bytes a game
    # so, 59 half full; the hex table 20 against 26).
    schema_editor.execute(
        f"INSERT INTO {quote(table._meta.db_table)} ({', '.join(keys + counters)}) "
        f"SELECT {', '.join(keys + [f'SUM({c})' for c in counters])} "
        f"FROM {quote(cube._meta.db_table)} GROUP BY {', '.join(keys)} "
        # In month order, as rebuild_stats writes it: a date range reads a run of pages.
        f"ORDER BY {quote(table._meta.get_field('month').column)}"
    )
    listed = ", ".join(quote(c) for c in columns)
    schema_editor.execute(
        f"CREATE VIEW {quote(view._meta.db_table)} AS "
        f"SELECT id, {listed} FROM {quote(table._meta.db_table)} UNION ALL "
        f"SELECT -id, {listed} FROM {quote(delta._meta.db_table)}"
    )


def drop_view(apps, schema_editor, table_name: str) -> None:
    view = apps.get_model("stats", f"{table_name}Live")
    schema_editor.execute(f"DROP VIEW IF EXISTS {schema_editor.quote_name(view._meta.db_table)}")


def retype_par(
    apps,
    schema_editor,
    tables: Sequence[str],
    views: Sequence[str],
    scale: int,
    to_whole: bool,
    columns: Sequence[str] = ("expected",),
) -> None:
    """These tables' par `columns` to whole numbers times `scale` (stats.models.PAR_SCALE
    when the migration was written), or back to floats; the live views reading them dropped
    meanwhile (PostgreSQL refuses to retype a column a view reads) and created again with
    their own text (pg_get_viewdef). SQLite keeps a view's text and lets a column hold what
    it is given, so there only the values change."""
    quote = schema_editor.quote_name
    connection = schema_editor.connection
    postgresql = connection.vendor == "postgresql"
    kept_views = []
    if postgresql:
        with connection.cursor() as cursor:
            for name in views:
                view = apps.get_model("stats", name)._meta.db_table
                cursor.execute("SELECT pg_get_viewdef(%s::regclass)", [view])
                kept_views.append((quote(view), cursor.fetchone()[0]))
        for view, _ in kept_views:
            schema_editor.execute(f"DROP VIEW {view}")
    for name in tables:
        table = quote(apps.get_model("stats", name)._meta.db_table)
        quoted = [quote(column) for column in columns]
        if postgresql:  # every column in one statement: the table is written once
            changes = [
                f"ALTER COLUMN {column} TYPE bigint USING round({column} * {scale})::bigint"
                if to_whole
                else f"ALTER COLUMN {column} TYPE double precision "
                f"USING {column}::double precision / {scale}"
                for column in quoted
            ]
            schema_editor.execute(f"ALTER TABLE {table} {', '.join(changes)}")
        else:
            scaled = [
                f"{column} = round({column} * {scale})"
                if to_whole
                else f"{column} = {column} / {scale}.0"
                for column in quoted
            ]
            schema_editor.execute(f"UPDATE {table} SET {', '.join(scaled)}")
    for view, text in kept_views:
        schema_editor.execute(f"CREATE VIEW {view} AS {text}")
