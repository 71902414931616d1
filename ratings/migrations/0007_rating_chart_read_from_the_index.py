"""The rating changes' per-player index holds what the player's rating chart reads (issue 25)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0006_rating_changes_keyed_by_game_and_player'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='ratingchange',
            name='ratings_changes_of_player',
        ),
        migrations.AddIndex(
            model_name='ratingchange',
            index=models.Index(fields=['player', 'game_type', 'played_at'], include=('game', 'elo_after', 'mu_after', 'sigma_after'), name='ratings_changes_of_player'),
        ),
    ]
