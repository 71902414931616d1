"""Last step of moving Player to the players app: entries and table seats name
players.Player, and tournaments lets go of the model. State only: the rows stay put."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_player_table_renamed"),
        ("players", "0001_initial"),
        # Every other foreign key to the model must have moved before it leaves.
        ("games", "0004_gameseat_player_from_players_app"),
        ("ratings", "0003_player_from_players_app"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="registration",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="registrations",
                        to="players.player",
                    ),
                ),
                migrations.AlterField(
                    model_name="tableseat",
                    name="player",
                    field=models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="table_seats",
                        to="players.player",
                    ),
                ),
                migrations.DeleteModel(name="Player"),
            ],
            database_operations=[],
        ),
    ]
