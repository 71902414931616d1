"""A log's SHA-256 kept as its 32 bytes rather than 64 hex digits, and the status indexed
only where a log is not verified (issue 25, bytes per game). The digests are converted in
place, both ways: PostgreSQL by a change of the column's type, SQLite (whose columns take any
value) by rewriting each value after the table is rebuilt."""

from django.db import migrations, models
from django.db.models import Q

import games.models

TEXT = models.CharField(max_length=64, unique=True)
BYTES = games.models.DigestField(unique=True)


def altered(apps, schema_editor, old: models.Field, new: models.Field) -> None:
    """SQLite: the table rebuilt with the column's new type, its values copied as they are."""
    log = apps.get_model("games", "GameLog")
    old, new = old.clone(), new.clone()
    for field in (old, new):
        field.set_attributes_from_name("sha256")
        field.model = log
    schema_editor.alter_field(log, old, new)


def forwards(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Bytes have no LIKE index (db_index on a text column made one).
            cursor.execute(
                "SELECT indexname FROM pg_indexes WHERE tablename = 'games_gamelog' "
                "AND indexdef LIKE %s",
                ["%(sha256 varchar_pattern_ops)%"],
            )
            for (name,) in cursor.fetchall():
                cursor.execute(f"DROP INDEX {schema_editor.quote_name(name)}")
            cursor.execute(
                "ALTER TABLE games_gamelog ALTER COLUMN sha256 TYPE bytea "
                "USING decode(sha256, 'hex')"
            )
            return
        altered(apps, schema_editor, TEXT, BYTES)
        connection.connection.create_function("digest_bytes", 1, bytes.fromhex)
        cursor.execute("UPDATE games_gamelog SET sha256 = digest_bytes(sha256)")


def backwards(apps, schema_editor):
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "ALTER TABLE games_gamelog ALTER COLUMN sha256 TYPE varchar(64) "
                "USING encode(sha256, 'hex')"
            )
            log, text = apps.get_model("games", "GameLog"), TEXT.clone()
            text.set_attributes_from_name("sha256")
            schema_editor.execute(schema_editor._create_like_index_sql(log, text))
            return
        cursor.execute("UPDATE games_gamelog SET sha256 = lower(hex(sha256))")
        altered(apps, schema_editor, BYTES, TEXT)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_fewer_indexes_per_game"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(forwards, backwards)],
            state_operations=[
                migrations.AlterField(model_name="gamelog", name="sha256", field=BYTES.clone())
            ],
        ),
        migrations.AlterField(
            model_name="gamelog",
            name="status",
            field=models.CharField(
                choices=[
                    ("queued", "Queued"),
                    ("verifying", "Verifying"),
                    ("verified", "Verified"),
                    ("rejected", "Rejected"),
                    ("error", "Error"),
                ],
                default="queued",
                max_length=12,
            ),
        ),
        migrations.AddIndex(
            model_name="gamelog",
            index=models.Index(
                condition=~Q(status="verified"),
                fields=["status", "created"],
                name="games_log_unfinished",
            ),
        ),
    ]
