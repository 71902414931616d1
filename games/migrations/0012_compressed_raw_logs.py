"""The raw log kept zlib-compressed (games.models.CompressedTextField). On PostgreSQL the
text becomes its UTF-8 bytes (`convert_to`: a cast to bytea would read backslashes as
escapes), which the field reads as they are; logs stored from now on are compressed. Going
back inflates the compressed rows first (in Python, with the preset dictionary a row names,
games.log_dictionary) and turns the bytes into text again."""

from django.db import migrations

import games.models
from games import log_dictionary


def alter_on_postgresql(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE games_gamelog ALTER COLUMN raw TYPE bytea USING convert_to(raw, 'UTF8')"
        )


def back_on_postgresql(apps, schema_editor) -> None:
    """SQL cannot inflate zlib, so the compressed rows are turned back into their UTF-8
    bytes here, a chunk at a time, before the column becomes text again."""
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        last = 0
        while True:
            cursor.execute(
                "SELECT id, raw FROM games_gamelog WHERE id > %s AND substring(raw FROM 1 FOR 1)"
                " = '\\x78'::bytea ORDER BY id LIMIT 500",
                [last],
            )
            rows = cursor.fetchall()
            if not rows:
                break
            for log_id, raw in rows:
                cursor.execute(
                    "UPDATE games_gamelog SET raw = %s WHERE id = %s",
                    [log_dictionary.LOGS.decompress(bytes(raw)), log_id],
                )
            last = rows[-1][0]
    schema_editor.execute(
        "ALTER TABLE games_gamelog ALTER COLUMN raw TYPE text USING convert_from(raw, 'UTF8')"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_batch_body_in_the_database"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="gamelog",
                    name="raw",
                    field=games.models.CompressedTextField(help_text="The log exactly as received"),
                ),
            ],
            database_operations=[migrations.RunPython(alter_on_postgresql, back_on_postgresql)],
        ),
    ]
