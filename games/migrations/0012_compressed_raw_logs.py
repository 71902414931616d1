"""The raw log kept zlib-compressed (games.models.CompressedTextField). On PostgreSQL the
text becomes its UTF-8 bytes (`convert_to`: a cast to bytea would read backslashes as
escapes), which the field reads as they are; logs stored from now on are compressed."""

from django.db import migrations

import games.models


def alter_on_postgresql(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE games_gamelog ALTER COLUMN raw TYPE bytea USING convert_to(raw, 'UTF8')"
        )


def back_on_postgresql(apps, schema_editor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        raise RuntimeError("compressed logs cannot be turned back into text by SQL")


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
