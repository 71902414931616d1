"""The bid cube summed over ruleset and strategy (by month, source, table size and band) and
the pair cube over table size and ruleset (by month, source and band), with their live views:
the per-strategy page's fair-bid and head-to-head queries with a date range and a source or
a band read them instead of the cube (stats.models.BY_MONTH; issue 25). Filled from the
cubes as migration 0013 filled the score table; the next fold adds the deltas not folded yet
to them too.
"""

from django.db import migrations, models

from stats.migrations import _by_month

TABLES = (
    ("BidCube", "BidCubeByMonthSourceSizeAndBand"),
    ("PairCube", "PairCubeByMonthSourceAndBand"),
)


def fill_and_create_views(apps, schema_editor) -> None:
    for cube, table in TABLES:
        _by_month.fill_and_create_view(apps, schema_editor, cube, table)


def drop_views(apps, schema_editor) -> None:
    for _, table in TABLES:
        _by_month.drop_view(apps, schema_editor, table)



class Migration(migrations.Migration):

    dependencies = [
        ('stats', '0014_hex_cube_by_month_source_and_band'),
    ]

    operations = [
        migrations.CreateModel(
            name='BidCubeByMonthSourceSizeAndBandLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('player_count', models.PositiveSmallIntegerField()),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('turn_order', models.PositiveSmallIntegerField()),
                ('winning_bid', models.SmallIntegerField()),
                ('wins', models.FloatField(default=0)),
                ('expected', models.FloatField(default=0)),
                ('id', models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'stats_bidcubebymonthsourcesizeandbandlive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='PairCubeByMonthSourceAndBandLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
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
                'db_table': 'stats_paircubebymonthsourceandbandlive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='BidCubeByMonthSourceSizeAndBand',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('player_count', models.PositiveSmallIntegerField()),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('turn_order', models.PositiveSmallIntegerField()),
                ('winning_bid', models.SmallIntegerField()),
                ('wins', models.FloatField(default=0)),
                ('expected', models.FloatField(default=0)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'month', 'source', 'player_count', 'band', 'turn_order', 'winning_bid'), name='stats_bidcubebymonthsourcesizeandband_key')],
            },
        ),
        migrations.CreateModel(
            name='PairCubeByMonthSourceAndBand',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('opponent', models.CharField(max_length=100)),
                ('ahead', models.FloatField(default=0)),
                ('behind', models.FloatField(default=0)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'month', 'source', 'band', 'strategy', 'opponent'), name='stats_paircubebymonthsourceandband_key')],
            },
        ),
        migrations.RunPython(fill_and_create_views, drop_views),
    ]
