"""GameSeat.player now names players.Player: same table, same rows, so no SQL."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_compressed_facts"),
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="gameseat",
                    name="player",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seats",
                        to="players.player",
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]
