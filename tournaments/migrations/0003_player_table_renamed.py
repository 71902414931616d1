"""First step of moving Player to the players app: its table takes the new app's name.

Renaming keeps every row and id, and the foreign keys of game seats, table seats,
registrations and ratings keep pointing at the same rows (both PostgreSQL and SQLite
follow a renamed table). players.0001 then takes the model over without touching the
database, and tournaments.0004 lets go of it.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_tournaments"),
    ]

    operations = [
        migrations.AlterModelTable(name="player", table="players_player"),
    ]
