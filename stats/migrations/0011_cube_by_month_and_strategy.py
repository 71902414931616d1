"""Every cube but the hex one summed over source, table size, ruleset and band (the bid
cube keeping its table size), by month and strategy, with their live views: the
per-strategy page with a date range and no other filter reads them (stats.models.BY_MONTH).
Filled from the cubes; the deltas not folded yet are in the views, and the next fold adds
them to these tables too.
"""

from django.db import migrations, models

CUBES = ("StrategyCube", "ScoreCube", "SeatCube", "BidCube", "PairCube", "RoundCube")


def tables(apps):
    """(cube, its table by month and strategy, its delta, the table's live view)."""
    for name in CUBES:
        yield (
            apps.get_model("stats", name),
            apps.get_model("stats", f"{name}ByMonthAndStrategy"),
            apps.get_model("stats", f"{name}Delta"),
            apps.get_model("stats", f"{name}ByMonthAndStrategyLive"),
        )


def fill_and_create_views(apps, schema_editor) -> None:
    quote = schema_editor.quote_name
    for cube, table, delta, view in tables(apps):
        columns = [f.column for f in table._meta.concrete_fields if f.name != "id"]
        (key,) = table._meta.constraints
        keys = [quote(table._meta.get_field(name).column) for name in key.fields]
        counters = [quote(c) for c in columns if quote(c) not in keys]
        if schema_editor.connection.vendor == "postgresql":
            # As every cube (migration 0003): a fold's update stays on its row's page.
            schema_editor.execute(
                f"ALTER TABLE {quote(table._meta.db_table)} SET (fillfactor = 50)"
            )
        schema_editor.execute(
            f"INSERT INTO {quote(table._meta.db_table)} ({', '.join(keys + counters)}) "
            f"SELECT {', '.join(keys + [f'SUM({c})' for c in counters])} "
            f"FROM {quote(cube._meta.db_table)} GROUP BY {', '.join(keys)} "
            # In month order, as rebuild_stats writes them: a date range reads a run of pages.
            f"ORDER BY {quote(table._meta.get_field('month').column)}"
        )
        listed = ", ".join(quote(c) for c in columns)
        schema_editor.execute(
            f"CREATE VIEW {quote(view._meta.db_table)} AS "
            f"SELECT id, {listed} FROM {quote(table._meta.db_table)} UNION ALL "
            f"SELECT -id, {listed} FROM {quote(delta._meta.db_table)}"
        )


def drop_views(apps, schema_editor) -> None:
    for _, _, _, view in tables(apps):
        schema_editor.execute(f"DROP VIEW IF EXISTS {schema_editor.quote_name(view._meta.db_table)}")



class Migration(migrations.Migration):

    dependencies = [
        ('stats', '0010_seat_lines_packed_per_game'),
    ]

    operations = [
        migrations.CreateModel(
            name='BidCubeByMonthAndStrategyLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('player_count', models.PositiveSmallIntegerField()),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('turn_order', models.PositiveSmallIntegerField()),
                ('winning_bid', models.SmallIntegerField()),
                ('wins', models.FloatField(default=0)),
                ('expected', models.FloatField(default=0)),
                ('id', models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'stats_bidcubebymonthandstrategylive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='PairCubeByMonthAndStrategyLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('opponent', models.CharField(max_length=100)),
                ('ahead', models.FloatField(default=0)),
                ('behind', models.FloatField(default=0)),
                ('id', models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'stats_paircubebymonthandstrategylive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='RoundCubeByMonthAndStrategyLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('round', models.PositiveSmallIntegerField()),
                ('moment', models.PositiveSmallIntegerField()),
                ('points', models.FloatField(default=0)),
                ('drowned', models.FloatField(default=0)),
                ('depth', models.FloatField(default=0)),
                ('id', models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'stats_roundcubebymonthandstrategylive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='ScoreCubeByMonthAndStrategyLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('score_bin', models.IntegerField()),
                ('id', models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'stats_scorecubebymonthandstrategylive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='SeatCubeByMonthAndStrategyLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('seat', models.PositiveSmallIntegerField()),
                ('turn_order', models.PositiveSmallIntegerField()),
                ('wins', models.FloatField(default=0)),
                ('expected', models.FloatField(default=0)),
                ('score', models.FloatField(default=0)),
                ('id', models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'stats_seatcubebymonthandstrategylive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='StrategyCubeByMonthAndStrategyLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('wins', models.FloatField(default=0)),
                ('expected', models.FloatField(default=0)),
                ('score', models.FloatField(default=0)),
                ('score_sq', models.FloatField(default=0)),
                ('rank', models.FloatField(default=0)),
                ('id', models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'stats_strategycubebymonthandstrategylive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='BidCubeByMonthAndStrategy',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('player_count', models.PositiveSmallIntegerField()),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('turn_order', models.PositiveSmallIntegerField()),
                ('winning_bid', models.SmallIntegerField()),
                ('wins', models.FloatField(default=0)),
                ('expected', models.FloatField(default=0)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'month', 'player_count', 'strategy', 'turn_order', 'winning_bid'), name='stats_bidcubebymonthandstrategy_key')],
            },
        ),
        migrations.CreateModel(
            name='PairCubeByMonthAndStrategy',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('opponent', models.CharField(max_length=100)),
                ('ahead', models.FloatField(default=0)),
                ('behind', models.FloatField(default=0)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'month', 'strategy', 'opponent'), name='stats_paircubebymonthandstrategy_key')],
            },
        ),
        migrations.CreateModel(
            name='RoundCubeByMonthAndStrategy',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('round', models.PositiveSmallIntegerField()),
                ('moment', models.PositiveSmallIntegerField()),
                ('points', models.FloatField(default=0)),
                ('drowned', models.FloatField(default=0)),
                ('depth', models.FloatField(default=0)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'month', 'strategy', 'round', 'moment'), name='stats_roundcubebymonthandstrategy_key')],
            },
        ),
        migrations.CreateModel(
            name='ScoreCubeByMonthAndStrategy',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('score_bin', models.IntegerField()),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'month', 'strategy', 'score_bin'), name='stats_scorecubebymonthandstrategy_key')],
            },
        ),
        migrations.CreateModel(
            name='SeatCubeByMonthAndStrategy',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('seat', models.PositiveSmallIntegerField()),
                ('turn_order', models.PositiveSmallIntegerField()),
                ('wins', models.FloatField(default=0)),
                ('expected', models.FloatField(default=0)),
                ('score', models.FloatField(default=0)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'month', 'strategy', 'seat', 'turn_order'), name='stats_seatcubebymonthandstrategy_key')],
            },
        ),
        migrations.CreateModel(
            name='StrategyCubeByMonthAndStrategy',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('wins', models.FloatField(default=0)),
                ('expected', models.FloatField(default=0)),
                ('score', models.FloatField(default=0)),
                ('score_sq', models.FloatField(default=0)),
                ('rank', models.FloatField(default=0)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'month', 'strategy'), name='stats_strategycubebymonthandstrategy_key')],
            },
        ),
        migrations.RunPython(fill_and_create_views, drop_views),
    ]
