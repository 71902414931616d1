"""The hex cube summed over strategies by month, for the per-hex page with a date range
(stats.models.rollup_of), with its live view, filled from the hex cube (the deltas not
folded yet are folded into it too); and an index by game type and month on every cube, for
the pages with a date range.
"""

from django.db import migrations, models

COLUMNS = (
    "game_type",
    "source",
    "player_count",
    "ruleset",
    "month",
    "band",
    "hex",
)


def create_view_and_fill(apps, schema_editor) -> None:
    quote = schema_editor.quote_name
    table = apps.get_model("stats", "HexCubeByMonth")
    cube = apps.get_model("stats", "HexCube")
    delta = apps.get_model("stats", "HexCubeDelta")
    view = apps.get_model("stats", "HexCubeByMonthLive")
    keys = [quote(cube._meta.get_field(name).column) for name in COLUMNS]
    columns = [quote(field.column) for field in table._meta.concrete_fields if field.name != "id"]
    counters = [c for c in columns if c not in keys]
    if schema_editor.connection.vendor == "postgresql":
        # As every cube (migration 0003): a fold's update stays on its row's page.
        schema_editor.execute(f"ALTER TABLE {quote(table._meta.db_table)} SET (fillfactor = 50)")
    schema_editor.execute(
        f"INSERT INTO {quote(table._meta.db_table)} ({', '.join(keys + counters)}) "
        f"SELECT {', '.join(keys + [f'SUM({c})' for c in counters])} "
        f"FROM {quote(cube._meta.db_table)} GROUP BY {', '.join(keys)}"
    )
    schema_editor.execute(
        f"CREATE VIEW {quote(view._meta.db_table)} AS "
        f"SELECT id, {', '.join(columns)} FROM {quote(table._meta.db_table)} UNION ALL "
        f"SELECT -id, {', '.join(columns)} FROM {quote(delta._meta.db_table)}"
    )


def drop_view(apps, schema_editor) -> None:
    view = apps.get_model("stats", "HexCubeByMonthLive")
    schema_editor.execute(f"DROP VIEW IF EXISTS {schema_editor.quote_name(view._meta.db_table)}")


class Migration(migrations.Migration):
    dependencies = [
        ("stats", "0004_cube_deltas"),
    ]

    operations = [
        migrations.CreateModel(
            name="HexCubeByMonthLive",
            fields=[
                ("game_type", models.CharField(max_length=40)),
                ("source", models.CharField(max_length=20)),
                ("player_count", models.PositiveSmallIntegerField()),
                ("ruleset", models.CharField(max_length=40)),
                ("month", models.DateField(help_text="First day of the month the game was played")),
                ("band", models.CharField(help_text="Rating band of the seat", max_length=20)),
                ("offered", models.FloatField(default=0)),
                ("taken", models.FloatField(default=0)),
                ("position", models.FloatField(default=0)),
                ("paid", models.FloatField(default=0)),
                ("found", models.FloatField(default=0)),
                ("owned", models.FloatField(default=0)),
                ("owned_wins", models.FloatField(default=0)),
                ("owned_expected", models.FloatField(default=0)),
                ("passed", models.FloatField(default=0)),
                ("passed_wins", models.FloatField(default=0)),
                ("passed_expected", models.FloatField(default=0)),
                ("early", models.FloatField(default=0)),
                ("early_wins", models.FloatField(default=0)),
                ("early_expected", models.FloatField(default=0)),
                ("late", models.FloatField(default=0)),
                ("late_wins", models.FloatField(default=0)),
                ("late_expected", models.FloatField(default=0)),
                ("grows", models.FloatField(default=0)),
                ("grow_archaea", models.FloatField(default=0)),
                ("triggers", models.FloatField(default=0)),
                ("trigger_archaea", models.FloatField(default=0)),
                ("attacks", models.FloatField(default=0)),
                ("damage", models.FloatField(default=0)),
                ("decimated", models.FloatField(default=0)),
                ("survived", models.FloatField(default=0)),
                ("taken_p1", models.FloatField(default=0)),
                ("taken_p2", models.FloatField(default=0)),
                ("taken_p3", models.FloatField(default=0)),
                ("taken_p4", models.FloatField(default=0)),
                ("taken_p5", models.FloatField(default=0)),
                ("taken_p6", models.FloatField(default=0)),
                ("taken_t1", models.FloatField(default=0)),
                ("taken_t2", models.FloatField(default=0)),
                ("taken_t3", models.FloatField(default=0)),
                ("taken_t4", models.FloatField(default=0)),
                ("taken_t5", models.FloatField(default=0)),
                ("taken_t6", models.FloatField(default=0)),
                ("taken_t7", models.FloatField(default=0)),
                ("taken_t8", models.FloatField(default=0)),
                ("n", models.BigIntegerField(default=0, help_text="Lines summed")),
                ("hex", models.CharField(max_length=40)),
                ("id", models.BigIntegerField(primary_key=True, serialize=False)),
            ],
            options={
                "db_table": "stats_hexcubebymonthlive",
                "managed": False,
            },
        ),
        migrations.CreateModel(
            name="HexCubeByMonth",
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
                ("ruleset", models.CharField(max_length=40)),
                ("month", models.DateField(help_text="First day of the month the game was played")),
                ("band", models.CharField(help_text="Rating band of the seat", max_length=20)),
                ("offered", models.FloatField(default=0)),
                ("taken", models.FloatField(default=0)),
                ("position", models.FloatField(default=0)),
                ("paid", models.FloatField(default=0)),
                ("found", models.FloatField(default=0)),
                ("owned", models.FloatField(default=0)),
                ("owned_wins", models.FloatField(default=0)),
                ("owned_expected", models.FloatField(default=0)),
                ("passed", models.FloatField(default=0)),
                ("passed_wins", models.FloatField(default=0)),
                ("passed_expected", models.FloatField(default=0)),
                ("early", models.FloatField(default=0)),
                ("early_wins", models.FloatField(default=0)),
                ("early_expected", models.FloatField(default=0)),
                ("late", models.FloatField(default=0)),
                ("late_wins", models.FloatField(default=0)),
                ("late_expected", models.FloatField(default=0)),
                ("grows", models.FloatField(default=0)),
                ("grow_archaea", models.FloatField(default=0)),
                ("triggers", models.FloatField(default=0)),
                ("trigger_archaea", models.FloatField(default=0)),
                ("attacks", models.FloatField(default=0)),
                ("damage", models.FloatField(default=0)),
                ("decimated", models.FloatField(default=0)),
                ("survived", models.FloatField(default=0)),
                ("taken_p1", models.FloatField(default=0)),
                ("taken_p2", models.FloatField(default=0)),
                ("taken_p3", models.FloatField(default=0)),
                ("taken_p4", models.FloatField(default=0)),
                ("taken_p5", models.FloatField(default=0)),
                ("taken_p6", models.FloatField(default=0)),
                ("taken_t1", models.FloatField(default=0)),
                ("taken_t2", models.FloatField(default=0)),
                ("taken_t3", models.FloatField(default=0)),
                ("taken_t4", models.FloatField(default=0)),
                ("taken_t5", models.FloatField(default=0)),
                ("taken_t6", models.FloatField(default=0)),
                ("taken_t7", models.FloatField(default=0)),
                ("taken_t8", models.FloatField(default=0)),
                ("n", models.BigIntegerField(default=0, help_text="Lines summed")),
                ("hex", models.CharField(max_length=40)),
            ],
        ),
        migrations.AddIndex(
            model_name="bidcube",
            index=models.Index(fields=["game_type", "month"], name="stats_bidcube_month"),
        ),
        migrations.AddIndex(
            model_name="hexcube",
            index=models.Index(fields=["game_type", "month"], name="stats_hexcube_month"),
        ),
        migrations.AddIndex(
            model_name="paircube",
            index=models.Index(fields=["game_type", "month"], name="stats_paircube_month"),
        ),
        migrations.AddIndex(
            model_name="roundcube",
            index=models.Index(fields=["game_type", "month"], name="stats_roundcube_month"),
        ),
        migrations.AddIndex(
            model_name="scorecube",
            index=models.Index(fields=["game_type", "month"], name="stats_scorecube_month"),
        ),
        migrations.AddIndex(
            model_name="seatcube",
            index=models.Index(fields=["game_type", "month"], name="stats_seatcube_month"),
        ),
        migrations.AddIndex(
            model_name="strategycube",
            index=models.Index(fields=["game_type", "month"], name="stats_strategycube_month"),
        ),
        migrations.AddConstraint(
            model_name="hexcubebymonth",
            constraint=models.UniqueConstraint(
                fields=("game_type", "source", "player_count", "ruleset", "month", "band", "hex"),
                name="stats_hexcubebymonth_key",
            ),
        ),
        migrations.RunPython(create_view_and_fill, drop_view),
    ]
