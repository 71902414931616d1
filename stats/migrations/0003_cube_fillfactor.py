"""PostgreSQL: leave room on every cube page so a counter update stays on its page.

Every verified game updates hundreds of cube rows in place. With free room on the page the
new row version is a heap-only tuple: no new entry in the (wide) unique index, which
otherwise bloats until VACUUM and slows every later upsert several times over. The cubes
are small (a row per key), so half-empty pages cost next to nothing.
"""

from django.db import migrations

CUBE_TABLES = [
    f"stats_{name}"
    for cube in ("strategy", "score", "seat", "bid", "pair", "hex", "round")
    for name in (f"{cube}cube", f"{cube}cuberollup")
]
FILLFACTOR = 50


def set_fillfactor(value: int):
    def run(apps, schema_editor) -> None:
        if schema_editor.connection.vendor != "postgresql":
            return
        for table in CUBE_TABLES:
            schema_editor.execute(
                f"ALTER TABLE {schema_editor.quote_name(table)} SET (fillfactor = {value})"
            )

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0002_cube_rollups"),
    ]

    operations = [
        migrations.RunPython(set_fillfactor(FILLFACTOR), set_fillfactor(100)),
    ]
