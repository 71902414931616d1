"""Ratings name players.Player now: same table, same rows, so no SQL."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0002_rating_ledger"),
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="rating",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ratings",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="ratingchange",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_changes",
                        to="players.player",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
