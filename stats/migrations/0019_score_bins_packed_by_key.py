"""The score cube's bins packed by key: a row per key of the cube, its rollup and its tables
by month (but the score bin) holding the key's bins and counts as one text of numbers, which
the per-strategy page's score chart reads instead of a row per bin (stats.models
.packed_score_bins; issue 25). Packed here from the tables on PostgreSQL, as
stats.services.score_bins.pack_all packs them; SQLite's pages sum the tables' bins, and its
packed tables stay empty."""

from django.db import migrations, models

PACKED = {
    "ScoreCube": "ScoreCubePacked",
    "ScoreCubeRollup": "ScoreCubeRollupPacked",
    "ScoreCubeByMonthAndStrategy": "ScoreCubeByMonthAndStrategyPacked",
    "ScoreCubeByMonthSourceAndBand": "ScoreCubeByMonthSourceAndBandPacked",
}


def pack(apps, schema_editor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    quote = schema_editor.quote_name
    for table_name, packed_name in PACKED.items():
        table = apps.get_model("stats", table_name)
        packed = apps.get_model("stats", packed_name)
        keys = [quote(field.column) for field in packed._meta.pk_fields]
        in_order = " ORDER BY t.month" if '"month"' in keys else ""
        schema_editor.execute(
            f"INSERT INTO {quote(packed._meta.db_table)} ({', '.join(keys)}, bins, stale) "
            f"SELECT {', '.join(f't.{key}' for key in keys)}, "
            "string_agg(t.score_bin || ',' || t.n, ',' ORDER BY t.score_bin), false "
            f"FROM {quote(table._meta.db_table)} AS t "
            f"GROUP BY {', '.join(f't.{key}' for key in keys)}{in_order}"
        )


class Migration(migrations.Migration):

    dependencies = [
        ('stats', '0018_strategy_bid_and_hex_par_in_whole_numbers'),
    ]

    operations = [
        migrations.CreateModel(
            name='ScoreCubeByMonthAndStrategyPacked',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('strategy', models.CharField(max_length=100)),
                ('pk', models.CompositePrimaryKey('game_type', 'month', 'strategy', blank=True, editable=False, primary_key=True, serialize=False)),
                ('bins', models.TextField(default='', help_text='Each score bin and its count')),
                ('stale', models.BooleanField(default=False, help_text='To be packed again')),
            ],
        ),
        migrations.CreateModel(
            name='ScoreCubeByMonthSourceAndBandPacked',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('strategy', models.CharField(max_length=100)),
                ('pk', models.CompositePrimaryKey('game_type', 'month', 'source', 'band', 'strategy', blank=True, editable=False, primary_key=True, serialize=False)),
                ('bins', models.TextField(default='', help_text='Each score bin and its count')),
                ('stale', models.BooleanField(default=False, help_text='To be packed again')),
            ],
        ),
        migrations.CreateModel(
            name='ScoreCubePacked',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('player_count', models.PositiveSmallIntegerField()),
                ('ruleset', models.CharField(max_length=40)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('strategy', models.CharField(max_length=100)),
                ('pk', models.CompositePrimaryKey('game_type', 'source', 'player_count', 'ruleset', 'month', 'band', 'strategy', blank=True, editable=False, primary_key=True, serialize=False)),
                ('bins', models.TextField(default='', help_text='Each score bin and its count')),
                ('stale', models.BooleanField(default=False, help_text='To be packed again')),
            ],
        ),
        migrations.CreateModel(
            name='ScoreCubeRollupPacked',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('player_count', models.PositiveSmallIntegerField()),
                ('ruleset', models.CharField(max_length=40)),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('strategy', models.CharField(max_length=100)),
                ('pk', models.CompositePrimaryKey('game_type', 'source', 'player_count', 'ruleset', 'band', 'strategy', blank=True, editable=False, primary_key=True, serialize=False)),
                ('bins', models.TextField(default='', help_text='Each score bin and its count')),
                ('stale', models.BooleanField(default=False, help_text='To be packed again')),
            ],
        ),
        migrations.RunPython(pack, migrations.RunPython.noop),
    ]
