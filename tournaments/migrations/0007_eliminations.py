"""Eliminations stored per tournament game (tournaments.models.Elimination), and filled in
for the tournament games verified before: their facts are read once here."""

import django.db.models.deletion
from django.db import migrations, models


def fill(apps, schema_editor) -> None:
    Game = apps.get_model("games", "Game")
    Elimination = apps.get_model("tournaments", "Elimination")
    rows = []
    for game in Game.objects.filter(source="tournament").only("pk", "facts").iterator(500):
        rows += [
            Elimination(game_id=game.pk, seat=fact["seat"], turn=fact["turn"])
            for fact in game.facts
            if fact.get("type") == "eliminated"
        ]
    Elimination.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_game_list_keyset'),
        ('tournaments', '0006_game_and_ruleset_choices'),
    ]

    operations = [
        migrations.CreateModel(
            name='Elimination',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seat', models.PositiveSmallIntegerField()),
                ('turn', models.PositiveSmallIntegerField()),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tournament_eliminations', to='games.game')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game', 'seat'), name='unique_elimination_seat')],
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
