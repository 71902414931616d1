"""The hex cube summed over table size, ruleset and strategy, by month, source, band and
hex, with its live view: the per-hex page with a date range and no filter but a source or a
band reads it (stats.models.BY_MONTH; issue 25). Filled from the cube as migration 0013
filled the score table; the next fold adds the deltas not folded yet to it too.
"""

from django.db import migrations, models

from stats.migrations import _by_month


def fill_and_create_view(apps, schema_editor) -> None:
    _by_month.fill_and_create_view(apps, schema_editor, "HexCube", "HexCubeByMonthSourceAndBand")


def drop_view(apps, schema_editor) -> None:
    _by_month.drop_view(apps, schema_editor, "HexCubeByMonthSourceAndBand")


class Migration(migrations.Migration):

    dependencies = [
        ('stats', '0013_score_cube_by_month_source_and_band'),
    ]

    operations = [
        migrations.CreateModel(
            name='HexCubeByMonthSourceAndBandLive',
            fields=[
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('offered', models.FloatField(default=0)),
                ('taken', models.FloatField(default=0)),
                ('position', models.FloatField(default=0)),
                ('paid', models.FloatField(default=0)),
                ('found', models.FloatField(default=0)),
                ('owned', models.FloatField(default=0)),
                ('owned_wins', models.FloatField(default=0)),
                ('owned_expected', models.FloatField(default=0)),
                ('passed', models.FloatField(default=0)),
                ('passed_wins', models.FloatField(default=0)),
                ('passed_expected', models.FloatField(default=0)),
                ('early', models.FloatField(default=0)),
                ('early_wins', models.FloatField(default=0)),
                ('early_expected', models.FloatField(default=0)),
                ('late', models.FloatField(default=0)),
                ('late_wins', models.FloatField(default=0)),
                ('late_expected', models.FloatField(default=0)),
                ('grows', models.FloatField(default=0)),
                ('grow_archaea', models.FloatField(default=0)),
                ('triggers', models.FloatField(default=0)),
                ('trigger_archaea', models.FloatField(default=0)),
                ('attacks', models.FloatField(default=0)),
                ('damage', models.FloatField(default=0)),
                ('decimated', models.FloatField(default=0)),
                ('survived', models.FloatField(default=0)),
                ('taken_p1', models.FloatField(default=0)),
                ('taken_p2', models.FloatField(default=0)),
                ('taken_p3', models.FloatField(default=0)),
                ('taken_p4', models.FloatField(default=0)),
                ('taken_p5', models.FloatField(default=0)),
                ('taken_p6', models.FloatField(default=0)),
                ('taken_t1', models.FloatField(default=0)),
                ('taken_t2', models.FloatField(default=0)),
                ('taken_t3', models.FloatField(default=0)),
                ('taken_t4', models.FloatField(default=0)),
                ('taken_t5', models.FloatField(default=0)),
                ('taken_t6', models.FloatField(default=0)),
                ('taken_t7', models.FloatField(default=0)),
                ('taken_t8', models.FloatField(default=0)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('hex', models.CharField(max_length=40)),
                ('id', models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                'db_table': 'stats_hexcubebymonthsourceandbandlive',
                'managed': False,
            },
        ),
        migrations.CreateModel(
            name='HexCubeByMonthSourceAndBand',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('game_type', models.CharField(max_length=40)),
                ('source', models.CharField(max_length=20)),
                ('month', models.DateField(help_text='First day of the month the game was played')),
                ('band', models.CharField(help_text='Rating band of the seat', max_length=20)),
                ('offered', models.FloatField(default=0)),
                ('taken', models.FloatField(default=0)),
                ('position', models.FloatField(default=0)),
                ('paid', models.FloatField(default=0)),
                ('found', models.FloatField(default=0)),
                ('owned', models.FloatField(default=0)),
                ('owned_wins', models.FloatField(default=0)),
                ('owned_expected', models.FloatField(default=0)),
                ('passed', models.FloatField(default=0)),
                ('passed_wins', models.FloatField(default=0)),
                ('passed_expected', models.FloatField(default=0)),
                ('early', models.FloatField(default=0)),
                ('early_wins', models.FloatField(default=0)),
                ('early_expected', models.FloatField(default=0)),
                ('late', models.FloatField(default=0)),
                ('late_wins', models.FloatField(default=0)),
                ('late_expected', models.FloatField(default=0)),
                ('grows', models.FloatField(default=0)),
                ('grow_archaea', models.FloatField(default=0)),
                ('triggers', models.FloatField(default=0)),
                ('trigger_archaea', models.FloatField(default=0)),
                ('attacks', models.FloatField(default=0)),
                ('damage', models.FloatField(default=0)),
                ('decimated', models.FloatField(default=0)),
                ('survived', models.FloatField(default=0)),
                ('taken_p1', models.FloatField(default=0)),
                ('taken_p2', models.FloatField(default=0)),
                ('taken_p3', models.FloatField(default=0)),
                ('taken_p4', models.FloatField(default=0)),
                ('taken_p5', models.FloatField(default=0)),
                ('taken_p6', models.FloatField(default=0)),
                ('taken_t1', models.FloatField(default=0)),
                ('taken_t2', models.FloatField(default=0)),
                ('taken_t3', models.FloatField(default=0)),
                ('taken_t4', models.FloatField(default=0)),
                ('taken_t5', models.FloatField(default=0)),
                ('taken_t6', models.FloatField(default=0)),
                ('taken_t7', models.FloatField(default=0)),
                ('taken_t8', models.FloatField(default=0)),
                ('n', models.BigIntegerField(default=0, help_text='Lines summed')),
                ('hex', models.CharField(max_length=40)),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('game_type', 'month', 'source', 'band', 'hex'), name='stats_hexcubebymonthsourceandband_key')],
            },
        ),
        migrations.RunPython(fill_and_create_view, drop_view),
    ]
