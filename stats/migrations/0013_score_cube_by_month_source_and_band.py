"""The score cube summed over table size and ruleset, by month, source, band and strategy,
with its live view: the per-strategy page with a date range and a source or a band reads it
(stats.models.BY_MONTH; issue 25). Filled from the cube as migration 0011 filled the tables
by month and strategy; the deltas not folded yet are in the view, and the next fold adds
them to this table too.
"""

from django.db import migrations, models


def fill_and_create_view(apps, schema_editor) -> None:
    quote = schema_editor.quote_name
    cube = apps.get_model("stats", "ScoreCube")
    table = apps.get_model("stats", "ScoreCubeByMonthSourceAndBand")
    delta = apps.get_model("stats", "ScoreCubeDelta")
    view = apps.get_model("stats", "ScoreCubeByMonthSourceAndBandLive")
    columns = [f.column for f in table._meta.concrete_fields if f.name != "id"]
    (key,) = table._meta.constraints
    keys = [quote(table._meta.get_field(name).column) for name in key.fields]
    counters = [quote(c) for c in columns if quote(c) not in keys]
    if schema_editor.connection.vendor == "postgresql":
        # As every cube (migration 0003): a fold's update stays on its row's page.
        schema_editor.execute(f"ALTER TABLE {quote(table._meta.db_table)} SET (fillfactor = 50)")
    schema_editor.execute(
        f"INSERT INTO {quote(table._meta.db_table)} ({', '.join(keys + counters)}) "
        f"SELECT {', '.join(keys + [f'SUM({c})' for c in counters])} "
        f"FROM {quote(cube._meta.db_table)} GROUP BY {', '.join(keys)} "
        # In month order, as rebuild_stats writes it: a date range reads a run of pages.
        f"ORDER BY {quote(table._meta.get_field('month').column)}"
    )
    listed = ", ".join(quote(c) for c in columns)
    schema_editor.execute(
        f"CREATE VIEW {quote(view._meta.db_table)} AS "
        f"SELECT id, {listed} FROM {quote(table._meta.db_table)} UNION ALL "
        f"SELECT -id, {listed} FROM {quote(delta._meta.db_table)}"
    )


def drop_view(apps, schema_editor) -> None:
    view = apps.get_model("stats", "ScoreCubeByMonthSourceAndBandLive")
    schema_editor.execute(f"DROP VIEW IF EXISTS {schema_editor.quote_name(view._meta.db_table)}")


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
