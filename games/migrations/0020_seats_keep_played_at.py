"""A seat keeps its game's played_at, and a player's seats are indexed newest first with what
the player's page sums (games_seats_of_player, named seats only, in place of the plain
player index); the few uncounted games are indexed (games_uncounted). Issue 25: the player
page read and sorted all of a player's seats and their games, thousands at 1M games."""

from django.db import migrations, models


def copy_played_at(apps, schema_editor):
    """Each seat's played_at from its game: one statement (a join on PostgreSQL)."""
    if schema_editor.connection.vendor == "postgresql":
        sql = (
            "UPDATE games_gameseat s SET played_at = g.played_at "
            "FROM games_game g WHERE g.id = s.game_id"
        )
    else:
        sql = (
            "UPDATE games_gameseat SET played_at = (SELECT g.played_at FROM games_game g "
            "WHERE g.id = games_gameseat.game_id)"
        )
    schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_seats_ordered_by_game_id"),
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameseat",
            name="played_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(copy_played_at, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="gameseat",
            name="played_at",
            field=models.DateTimeField(),
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
                condition=models.Q(("player__isnull", False)),
                fields=["player", "-played_at", "-game"],
                include=("rank", "winner", "summary"),
                name="games_seats_of_player",
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("counts", False)),
                fields=["id"],
                name="games_uncounted",
            ),
        ),
    ]
