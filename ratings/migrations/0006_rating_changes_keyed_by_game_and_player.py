"""Rating changes keyed by (game, player), without what can be read elsewhere (issue 25):
the table is written again with its columns in an order that packs them, and going back
derives what it dropped: the seat's rank and the game's source from the game, the OpenSkill
values going in from the player's previous change (the starting values for a first game)."""

import django.db.models.deletion
from django.db import migrations, models

# ratings.skill.START_MU and START_SIGMA when this was written (the model's defaults).
START_MU = 25.0
START_SIGMA = 25.0 / 3

KEPT = "game_id, player_id, played_at, elo_before, elo_after, mu_after, sigma_after, game_type, won"


def forwards(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO ratings_keyedratingchange ({KEPT}) SELECT {KEPT} FROM ratings_ratingchange"
        )


def backwards(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ratings_ratingchange (game_id, player_id, game_type, played_at, source, "
            "rank, won, elo_before, elo_after, mu_before, mu_after, sigma_before, sigma_after) "
            "SELECT c.game_id, c.player_id, c.game_type, c.played_at, g.source, "
            "(SELECT s.rank FROM games_gameseat s WHERE s.game_id = c.game_id "
            " AND s.player_id = c.player_id ORDER BY s.seat LIMIT 1), "
            "c.won, c.elo_before, c.elo_after, COALESCE(LAG(c.mu_after) OVER earlier, %s), "
            "c.mu_after, COALESCE(LAG(c.sigma_after) OVER earlier, %s), c.sigma_after "
            "FROM ratings_keyedratingchange c JOIN games_game g ON g.id = c.game_id "
            "WINDOW earlier AS (PARTITION BY c.player_id, c.game_type "
            "ORDER BY c.played_at, c.game_id)",
            [START_MU, START_SIGMA],
        )


def renamed_key(old: str, new: str):
    """PostgreSQL names a primary key after its table as created: the renamed table's key
    takes the name it would have had."""

    def rename(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(
                f"ALTER TABLE ratings_ratingchange RENAME CONSTRAINT {old} TO {new}"
            )

    return rename


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_fewer_indexes_per_game"),
        ("players", "0004_player_stats_refreshed_at_removed"),
        ("ratings", "0005_rating_changes_without_constraints"),
    ]

    operations = [
        migrations.CreateModel(
            name="KeyedRatingChange",
            fields=[
                ("pk", models.CompositePrimaryKey("game", "player", blank=True, editable=False, primary_key=True, serialize=False)),
                (
                    "game",
                    models.ForeignKey(
                        db_constraint=False,
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_changes",
                        to="games.game",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        db_constraint=False,
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="rating_changes",
                        to="players.player",
                    ),
                ),
                ("played_at", models.DateTimeField()),
                ("elo_before", models.FloatField()),
                ("elo_after", models.FloatField()),
                ("mu_after", models.FloatField()),
                ("sigma_after", models.FloatField()),
                ("game_type", models.CharField(max_length=40)),
                ("won", models.BooleanField()),
            ],
            options={
                "ordering": ["played_at", "game_id"],
                "indexes": [
                    models.Index(
                        fields=["player", "game_type", "played_at"],
                        name="ratings_changes_of_player",
                    )
                ],
            },
        ),
        migrations.RunPython(forwards, backwards),
        migrations.DeleteModel(name="RatingChange"),
        migrations.RenameModel(old_name="KeyedRatingChange", new_name="RatingChange"),
        migrations.RunPython(
            renamed_key("ratings_keyedratingchange_pkey", "ratings_ratingchange_pkey"),
            renamed_key("ratings_ratingchange_pkey", "ratings_keyedratingchange_pkey"),
        ),
    ]
