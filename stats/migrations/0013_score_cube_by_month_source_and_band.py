"""The score cube summed over table size and ruleset, by month, source, band and strategy,
with its live view: the per-strategy page with a date range and a source or a band reads it
(stats.models.BY_MONTH; issue 25). Filled from the cube as migration 0011 filled the tables
by month and strategy; the deltas not folded yet are in the view, and the next fold adds
them to this table too.
"""

from django.db import migrations, models

from stats.migrations import _by_month


def fill_and_create_view(apps, schema_editor) -> None:
    _by_month.fill_and_create_view(
        apps, schema_editor, "ScoreCube", "ScoreCubeByMonthSourceAndBand"
    )


def drop_view(apps, schema_editor) -> None:
    _by_month.drop_view(apps, schema_editor, "ScoreCubeByMonthSourceAndBand")


class Migration(migrations.Migration):

    dependencies = [
        ('stats', '0012_player_hex_tally'),
    ]

    operations = [
        migrations.CreateModel(
            name='ScoreCubeByMonthSourceAndBandLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('score_bin', models.IntegerField()),
                ('id', models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'stats_scorecubebymonthsourceandbandlive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='ScoreCubeByMonthSourceAndBand',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('score_bin', models.IntegerField()),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'month', 'source', 'band', 'strategy', 'score_bin'), name='stats_scorecubebymonthsourceandband_key')],
            },
        ),
        migrations.RunPython(fill_and_create_view, drop_view),
    ]
