"""Player moves here from tournaments, rows untouched: the table was renamed by
tournaments.0003, so this only declares the model (state, no SQL) and moves its content
type, so admin history and permissions follow it."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def move_content_type(apps, schema_editor, old_label="tournaments", new_label="players"):
    content_types = apps.get_model("contenttypes", "ContentType")
    if not content_types.objects.filter(app_label=new_label, model="player").exists():
        content_types.objects.filter(app_label=old_label, model="player").update(
            app_label=new_label
        )


def move_content_type_back(apps, schema_editor):
    move_content_type(apps, schema_editor, old_label="players", new_label="tournaments")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0003_player_table_renamed"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Player",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        (
                            "handle",
                            models.SlugField(
                                help_text="Short unique name used in URLs and game logs.",
                                max_length=40,
                                unique=True,
                            ),
                        ),
                        ("display_name", models.CharField(max_length=100)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        (
                            "stats_refreshed_at",
                            models.DateTimeField(
                                blank=True,
                                editable=False,
                                help_text="When a worker last recomputed this player's statistics.",
                                null=True,
                            ),
                        ),
                        (
                            "user",
                            models.OneToOneField(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="player",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={"ordering": ["display_name", "handle"]},
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(move_content_type, move_content_type_back),
    ]
