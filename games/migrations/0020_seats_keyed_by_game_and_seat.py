"""Game seats keyed by (game, seat), without an id of their own, carrying their game's played
time with an index (player, played_at desc, game desc) of the named seats in place of the plain player index, so a
player's games list reads a run of one index (issue 25). The table is written again with its
columns in an order that packs them (as ratings 0006 did for the rating changes); going back,
the seats get new ids and lose the copied time."""

import django.db.models.deletion
from django.db import migrations, models

KEPT = "game_id, player_id, score, seat, rank, winner, name, strategy, summary"


def forwards(apps, schema_editor):
    taken = ", ".join(f"s.{name}" for name in KEPT.split(", "))
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO games_keyedgameseat ({KEPT}, played_at) "
            f"SELECT {taken}, g.played_at FROM games_gameseat s "
            "JOIN games_game g ON g.id = s.game_id ORDER BY s.id"
        )


def backwards(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO games_gameseat ({KEPT}) SELECT {KEPT} FROM games_keyedgameseat "
            "ORDER BY game_id, seat"
        )


def renamed_key(old: str, new: str):
    """PostgreSQL names a primary key after its table as created: the renamed table's key
    takes the name it would have had."""

    def rename(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f"ALTER TABLE games_gameseat RENAME CONSTRAINT {old} TO {new}")

    return rename


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_seats_ordered_by_game_id"),
        ("players", "0004_player_stats_refreshed_at_removed"),
    ]

    operations = [
        migrations.CreateModel(
            name="KeyedGameSeat",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "game", "seat", blank=True, editable=False, primary_key=True, serialize=False
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="games.game",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        blank=True,
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seats",
                        to="players.player",
                    ),
                ),
                ("played_at", models.DateTimeField(help_text="The game's (Game.played_at)")),
                ("score", models.FloatField()),
                ("seat", models.PositiveSmallIntegerField()),
                ("rank", models.PositiveSmallIntegerField()),
                ("winner", models.BooleanField()),
                ("name", models.CharField(max_length=100)),
                ("strategy", models.CharField(blank=True, max_length=100)),
                ("summary", models.JSONField(blank=True, null=True)),
            ],
            options={
                "ordering": ["game_id", "seat"],
                "indexes": [
                    models.Index(
                        models.F("player"),
                        models.OrderBy(models.F("played_at"), descending=True),
                        models.OrderBy(models.F("game"), descending=True),
                        condition=models.Q(player__isnull=False),
                        name="games_seats_of_player",
                    )
                ],
            },
        ),
        migrations.RunPython(forwards, backwards),
        migrations.DeleteModel(name="GameSeat"),
        migrations.RenameModel(old_name="KeyedGameSeat", new_name="GameSeat"),
        migrations.RunPython(
            renamed_key("games_keyedgameseat_pkey", "games_gameseat_pkey"),
            renamed_key("games_gameseat_pkey", "games_keyedgameseat_pkey"),
        ),
    ]
