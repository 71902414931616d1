"""The strategy and bid cubes' par in whole numbers, as the seat cube's (0017): 60 / table size
a seat (stats.models.PAR_SCALE), where it was 1 / table size as a float, in every table of
theirs (the cube, its deltas, its rollup and its tables by month), so that their sums are
exact in any order and a table summed over some keys holds the cube's figures to the last
digit; and the hex cube's par-weighted twins (owned_expected...: a flag times its seat's
par, stats.models.HEX_PAR) in all its tables the same way. Their live views are dropped
while the columns change type and created again as they were (_by_month.retype_par).
"""

from django.db import migrations, models

from stats.migrations import _by_month

# stats.models.PAR_SCALE when this migration was written.
PAR_SCALE = 60
TABLES = (
    "StrategyCube",
    "StrategyCubeDelta",
    "StrategyCubeRollup",
    "StrategyCubeByMonthAndStrategy",
    "BidCube",
    "BidCubeDelta",
    "BidCubeRollup",
    "BidCubeByMonthAndStrategy",
    "BidCubeByMonthSourceSizeAndBand",
)
VIEWS = (
    "StrategyCubeLive",
    "StrategyCubeRollupLive",
    "StrategyCubeByMonthAndStrategyLive",
    "BidCubeLive",
    "BidCubeRollupLive",
    "BidCubeByMonthAndStrategyLive",
    "BidCubeByMonthSourceSizeAndBandLive",
)

# The hex cube's par-weighted twins (stats.models.HEX_PAR when this migration was written).
HEX_PAR = ("owned_expected", "passed_expected", "early_expected", "late_expected")
HEX_TABLES = (
    "HexCube",
    "HexCubeDelta",
    "HexCubeRollup",
    "HexCubeByMonth",
    "HexCubeByMonthSourceAndBand",
)
HEX_VIEWS = (
    "HexCubeLive",
    "HexCubeRollupLive",
    "HexCubeByMonthLive",
    "HexCubeByMonthSourceAndBandLive",
)


def retype(apps, schema_editor, to_whole: bool) -> None:
    _by_month.retype_par(apps, schema_editor, TABLES, VIEWS, PAR_SCALE, to_whole)
    _by_month.retype_par(
        apps, schema_editor, HEX_TABLES, HEX_VIEWS, PAR_SCALE, to_whole, HEX_PAR
    )


def to_whole_numbers(apps, schema_editor) -> None:
    retype(apps, schema_editor, True)


def to_floats(apps, schema_editor) -> None:
    retype(apps, schema_editor, False)


def par_field() -> models.BigIntegerField:
    return models.BigIntegerField(
        default=0, help_text="The seats' par summed, times PAR_SCALE: a whole number"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0017_seat_par_in_whole_numbers_and_seats_by_month_source_size_and_band"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(to_whole_numbers, to_floats)],
            state_operations=[
                *(
                    migrations.AlterField(
                        model_name=name.lower(), name="expected", field=par_field()
                    )
                    for name in TABLES
                ),
                *(
                    migrations.AlterField(model_name=name.lower(), name=column, field=par_field())
                    for name in HEX_TABLES
                    for column in HEX_PAR
                ),
            ],
        ),
    ]
