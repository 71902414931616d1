"""The players' seat tally (issue 25: the player page summed every seat of the player for
its seat figures), filled from the seats of the games with seat lines (the games the
statistics count) in one INSERT ... SELECT; going back drops it."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Count, IntegerField, Q, Sum, Value
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast, Coalesce, NullIf

# engines.core.game.TURN_ORDER and BID, stats.models.NO_TURN_ORDER and SEAT_TALLY_SUMS, as
# they were when this migration was written.
TURN_ORDER, BID, NO_TURN_ORDER = "turn", "bid", 0
SUMS = ("n", "wins", "ranks", "bids", "bid_total")


def number(key):
    return Cast(NullIf(KeyTextTransform(key, "summary"), Value("null")), IntegerField())


def fill(apps, schema_editor):
    GameSeat = apps.get_model("games", "GameSeat")
    SeatLines = apps.get_model("stats", "SeatLines")
    PlayerSeatTally = apps.get_model("stats", "PlayerSeatTally")
    summed = (
        GameSeat.objects.filter(
            player__isnull=False, game_id__in=SeatLines.objects.values("game_id")
        )
        .annotate(turn=Coalesce(number(TURN_ORDER), NO_TURN_ORDER), bid=number(BID))
        .values("player_id", "turn")
        .annotate(
            seats=Count("seat"),
            won=Count("seat", filter=Q(winner=True)),
            rank_total=Sum("rank"),
            with_bid=Count("bid"),
            bid_sum=Coalesce(Sum("bid"), 0),
        )
        .order_by("player_id", "turn")
        .values_list("player_id", "turn", "seats", "won", "rank_total", "with_bid", "bid_sum")
    )
    sql, params = summed.query.sql_with_params()
    quote = schema_editor.connection.ops.quote_name
    fields = [PlayerSeatTally._meta.get_field(name) for name in ("player", "turn_order", *SUMS)]
    columns = ", ".join(quote(field.column) for field in fields)
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(PlayerSeatTally._meta.db_table)} ({columns}) {sql}", params
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_games_that_do_not_count_indexed"),
        ("players", "0004_player_stats_refreshed_at_removed"),
        ("stats", "0015_bid_and_pair_cubes_by_month_source_and_band"),
    ]

    operations = [
        migrations.CreateModel(
            name="PlayerSeatTallyDelta",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("player", models.BigIntegerField()),
                ("turn_order", models.PositiveSmallIntegerField()),
                ("n", models.IntegerField(default=0)),
                ("wins", models.IntegerField(default=0)),
                ("ranks", models.IntegerField(default=0)),
                ("bids", models.IntegerField(default=0)),
                ("bid_total", models.IntegerField(default=0)),
            ],
        ),
        migrations.CreateModel(
            name="PlayerSeatTally",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "player",
                        "turn_order",
                        blank=True,
                        editable=False,
                        primary_key=True,
                        serialize=False,
                    ),
                ),
                ("turn_order", models.PositiveSmallIntegerField()),
                ("n", models.IntegerField(default=0, help_text="Seats")),
                ("wins", models.IntegerField(default=0)),
                ("ranks", models.IntegerField(default=0, help_text="The seats' ranks summed")),
                ("bids", models.IntegerField(default=0, help_text="Seats with a bid")),
                ("bid_total", models.IntegerField(default=0, help_text="Their bids summed")),
                (
                    "player",
                    models.ForeignKey(
                        db_constraint=False,
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="players.player",
                    ),
                ),
            ],
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
