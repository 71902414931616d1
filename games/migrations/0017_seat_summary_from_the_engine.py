"""A seat's turn order and bid move from two columns every game's seat had into the
engine's per-seat summary (Game.seat_summary; issue 26), under the engine's short keys.
Going back puts them into the two columns again."""

from django.db import migrations, models

BATCH = 2000
# engines.core.game.TURN_ORDER and BID, as they were when this migration was written.
TURN_ORDER, BID = "turn", "bid"


def columns_to_summary(apps, schema_editor) -> None:
    GameSeat = apps.get_model("games", "GameSeat")
    seats = GameSeat.objects.filter(
        models.Q(turn_order__isnull=False) | models.Q(bid__isnull=False)
    ).only("pk", "turn_order", "bid")
    changed = []
    for seat in seats.iterator(chunk_size=BATCH):
        values = {TURN_ORDER: seat.turn_order, BID: seat.bid}
        seat.summary = {key: value for key, value in values.items() if value is not None}
        changed.append(seat)
        if len(changed) == BATCH:
            GameSeat.objects.bulk_update(changed, ["summary"])
            changed = []
    GameSeat.objects.bulk_update(changed, ["summary"])


def summary_to_columns(apps, schema_editor) -> None:
    GameSeat = apps.get_model("games", "GameSeat")
    seats = GameSeat.objects.filter(summary__isnull=False).only("pk", "summary")
    changed = []
    for seat in seats.iterator(chunk_size=BATCH):
        seat.turn_order = seat.summary.get(TURN_ORDER)
        seat.bid = seat.summary.get(BID)
        changed.append(seat)
        if len(changed) == BATCH:
            GameSeat.objects.bulk_update(changed, ["turn_order", "bid"])
            changed = []
    GameSeat.objects.bulk_update(changed, ["turn_order", "bid"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_plain_indexes_without_like_ones"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameseat",
            name="summary",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(columns_to_summary, summary_to_columns, elidable=True),
        migrations.RemoveField(model_name="gameseat", name="bid"),
        migrations.RemoveField(model_name="gameseat", name="turn_order"),
    ]
