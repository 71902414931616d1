"""The seat cube's par in whole numbers (stats.models.PAR_SCALE: 60 / table size a seat, where
it was 1 / table size as a float), so that its sums are exact in any order; and the seat
cube summed over ruleset and strategy (by month, source, table size and band) with its live
view, which the per-strategy page's seat chart reads with a date range and a source, a table
size or a band instead of the cube (stats.models.BY_MONTH; issue 25). The live views of the
seat cube's tables are dropped while their column changes type, then created again as they
were (their own text: pg_get_viewdef; SQLite keeps a view's text, so there they stay).
"""

from django.db import migrations, models

from stats.migrations import _by_month

# stats.models.PAR_SCALE when this migration was written.
PAR_SCALE = 60
TABLES = ("SeatCube", "SeatCubeDelta", "SeatCubeRollup", "SeatCubeByMonthAndStrategy")
VIEWS = ("SeatCubeLive", "SeatCubeRollupLive", "SeatCubeByMonthAndStrategyLive")


def to_whole_numbers(apps, schema_editor) -> None:
    _by_month.retype_par(apps, schema_editor, TABLES, VIEWS, PAR_SCALE, True)


def to_floats(apps, schema_editor) -> None:
    _by_month.retype_par(apps, schema_editor, TABLES, VIEWS, PAR_SCALE, False)


def fill_and_create_view(apps, schema_editor) -> None:
    _by_month.fill_and_create_view(
        apps, schema_editor, "SeatCube", "SeatCubeByMonthSourceSizeAndBand"
    )


def drop_view(apps, schema_editor) -> None:
    _by_month.drop_view(apps, schema_editor, "SeatCubeByMonthSourceSizeAndBand")


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0016_player_seat_tally"),
    ]

    operations = [
        migrations.CreateModel(
            name="SeatCubeByMonthSourceSizeAndBandLive",
            fields=[
                ("game_type", models.CharField(max_length=40)),
                ("source", models.CharField(max_length=20)),
                ("player_count", models.PositiveSmallIntegerField()),
                ("month", models.DateField(help_text="First day of the month the game was played")),
                ("band", models.CharField(help_text="Rating band of the seat", max_length=20)),
                ("n", models.BigIntegerField(default=0, help_text="Lines summed")),
                ("seat", models.PositiveSmallIntegerField()),
                ("turn_order", models.PositiveSmallIntegerField()),
                ("wins", models.FloatField(default=0)),
                (
                    "expected",
                    models.BigIntegerField(
                        default=0,
                        help_text="The seats' par summed, times PAR_SCALE: a whole number",
                    ),
                ),
                ("score", models.FloatField(default=0)),
                ("id", models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                "db_table": "stats_seatcubebymonthsourcesizeandbandlive",
                "managed": False,
            },
        ),
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(to_whole_numbers, to_floats)],
            state_operations=[
                migrations.AlterField(
                    model_name="seatcube",
                    name="expected",
                    field=models.BigIntegerField(
                        default=0,
                        help_text="The seats' par summed, times PAR_SCALE: a whole number",
                    ),
                ),
                migrations.AlterField(
                    model_name="seatcubebymonthandstrategy",
                    name="expected",
                    field=models.BigIntegerField(
                        default=0,
                        help_text="The seats' par summed, times PAR_SCALE: a whole number",
                    ),
                ),
                migrations.AlterField(
                    model_name="seatcubedelta",
                    name="expected",
                    field=models.BigIntegerField(
                        default=0,
                        help_text="The seats' par summed, times PAR_SCALE: a whole number",
                    ),
                ),
                migrations.AlterField(
                    model_name="seatcuberollup",
                    name="expected",
                    field=models.BigIntegerField(
                        default=0,
                        help_text="The seats' par summed, times PAR_SCALE: a whole number",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="SeatCubeByMonthSourceSizeAndBand",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("game_type", models.CharField(max_length=40)),
                ("source", models.CharField(max_length=20)),
                ("player_count", models.PositiveSmallIntegerField()),
                ("month", models.DateField(help_text="First day of the month the game was played")),
                ("band", models.CharField(help_text="Rating band of the seat", max_length=20)),
                ("n", models.BigIntegerField(default=0, help_text="Lines summed")),
                ("seat", models.PositiveSmallIntegerField()),
                ("turn_order", models.PositiveSmallIntegerField()),
                ("wins", models.FloatField(default=0)),
                (
                    "expected",
                    models.BigIntegerField(
                        default=0,
                        help_text="The seats' par summed, times PAR_SCALE: a whole number",
                    ),
                ),
                ("score", models.FloatField(default=0)),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=(
                            "game_type",
                            "month",
                            "source",
                            "player_count",
                            "band",
                            "seat",
                            "turn_order",
                        ),
                        name="stats_seatcubebymonthsourcesizeandband_key",
                    )
                ],
            },
        ),
        migrations.RunPython(fill_and_create_view, drop_view),
    ]
