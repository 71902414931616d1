"""The score and pair cubes summed over ruleset alone (by table size, month, source, band
and strategy), with their live views: the per-strategy page with a date range and a table
size reads its score bins and head-to-head table from them instead of the cube
(stats.models.BY_MONTH; issue 25). Filled from the cubes as migration 0015 filled its
tables; the next fold adds the deltas not folded yet to them too. No seat table: seat sums
are par fractions, which summed in another order differ in their last digit.
"""

from django.db import migrations, models

from stats.migrations import _by_month

TABLES = (
    ("ScoreCube", "ScoreCubeByMonthSourceSizeBandAndStrategy"),
    ("PairCube", "PairCubeByMonthSourceSizeBandAndStrategy"),
)


def fill_and_create_views(apps, schema_editor) -> None:
    for cube, table in TABLES:
        _by_month.fill_and_create_view(apps, schema_editor, cube, table)
    # Autovacuum may be off: without statistics the planner guesses the new tables' size.
    if schema_editor.connection.vendor == "postgresql":
        for _, table in TABLES:
            model = apps.get_model("stats", table)
            schema_editor.execute(f"ANALYZE {schema_editor.quote_name(model._meta.db_table)}")


def drop_views(apps, schema_editor) -> None:
    for _, table in TABLES:
        _by_month.drop_view(apps, schema_editor, table)


class Migration(migrations.Migration):

    dependencies = [
        ('stats', '0016_player_seat_tally'),
    ]

    operations = [
        migrations.CreateModel(
            name='PairCubeByMonthSourceSizeBandAndStrategyLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('player_count', models.PositiveSmallIntegerField()),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('opponent', models.CharField(max_length=100)),
                ('ahead', models.FloatField(default=0)),
                ('behind', models.FloatField(default=0)),
                ('id', models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'stats_paircubebymonthsourcesizebandandstrategylive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='ScoreCubeByMonthSourceSizeBandAndStrategyLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('player_count', models.PositiveSmallIntegerField()),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('score_bin', models.IntegerField()),
                ('id', models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'stats_scorecubebymonthsourcesizebandandstrategylive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='PairCubeByMonthSourceSizeBandAndStrategy',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('player_count', models.PositiveSmallIntegerField()),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('opponent', models.CharField(max_length=100)),
                ('ahead', models.FloatField(default=0)),
                ('behind', models.FloatField(default=0)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'player_count', 'month', 'source', 'band', 'strategy', 'opponent'), name='stats_paircubebymonthsourcesizebandandstrategy_key')],
            },
        ),
        migrations.CreateModel(
            name='ScoreCubeByMonthSourceSizeBandAndStrategy',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('player_count', models.PositiveSmallIntegerField()),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('score_bin', models.IntegerField()),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'player_count', 'month', 'source', 'band', 'strategy', 'score_bin'), name='stats_scorecubebymonthsourcesizebandandstrategy_key')],
            },
        ),
        migrations.RunPython(fill_and_create_views, drop_views),
    ]
