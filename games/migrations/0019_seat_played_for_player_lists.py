"""A seat carries its game's played_at (issue 25): a player's games list reads its newest
seats by (player, played) from one index, not every game the player sat in."""

from django.db import migrations, models

# Portable (PostgreSQL and SQLite): each seat's game found by its primary key.
FILL = (
    "UPDATE games_gameseat SET played = "
    "(SELECT played_at FROM games_game WHERE games_game.id = games_gameseat.game_id)"
)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_recording_draft_revision"),
    ]

    operations = [
        migrations.AlterModelOptions(name="gameseat", options={"ordering": ["game_id", "seat"]}),
        migrations.AddField(
            model_name="gameseat",
            name="played",
            field=models.DateTimeField(editable=False, null=True),
        ),
        # Backwards the column goes with the field: nothing to undo here.
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
        migrations.AlterField(
            model_name="gameseat",
            name="played",
            field=models.DateTimeField(editable=False),
        ),
        migrations.AlterField(
            model_name="gameseat",
            name="player",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=models.deletion.PROTECT,
                related_name="seats",
                to="players.player",
            ),
        ),
        migrations.AddIndex(
            model_name="gameseat",
            index=models.Index(
                fields=["player", "-played", "-game"], name="games_seat_player_played"
            ),
        ),
    ]
