"""Hex lines packed a game to a row (issue 25): some eighty rows a game become one value
(stats.services.hex_packing). Lines stored before are packed as they are, and unpacked into
rows again on the way back."""

from collections import defaultdict

import django.db.models.deletion
from django.db import migrations, models

from stats.models import HEX_LINE_COUNTERS
from stats.services import hex_packing


def pack_rows(apps, schema_editor):
    HexLine = apps.get_model("stats", "HexLine")
    HexLines = apps.get_model("stats", "HexLines")
    by_game = defaultdict(list)
    lines = HexLine.objects.values_list("seat__game_id", "seat__seat", "hex", *HEX_LINE_COUNTERS)
    for game_id, seat, hex_id, *counts in lines.order_by("seat__game_id", "seat__seat", "hex"):
        by_game[game_id].append((seat, hex_id, *(count or 0 for count in counts)))
    HexLines.objects.bulk_create(
        HexLines(game_id=game_id, packed=hex_packing.pack(rows))
        for game_id, rows in by_game.items()
    )


def unpack_rows(apps, schema_editor):
    HexLine = apps.get_model("stats", "HexLine")
    HexLines = apps.get_model("stats", "HexLines")
    SeatLine = apps.get_model("stats", "SeatLine")
    seat_ids = {
        (game_id, seat): pk for pk, game_id, seat in SeatLine.objects.values_list("pk", "game_id", "seat")
    }
    HexLine.objects.bulk_create(
        HexLine(
            seat_id=seat_ids[(packed.game_id, seat)],
            hex=hex_id,
            **{name: count or None for name, count in zip(HEX_LINE_COUNTERS, counts)},
        )
        for packed in HexLines.objects.all()
        for seat, hex_id, *counts in hex_packing.unpack(bytes(packed.packed))
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_facts_derived_again_by_replay"),
        ("stats", "0007_pairs_made_from_seat_lines"),
    ]

    operations = [
        migrations.CreateModel(
            name="HexLines",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="stat_hexes",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                ("packed", models.BinaryField()),
            ],
        ),
        migrations.RunPython(pack_rows, unpack_rows),
        migrations.DeleteModel(name="HexLine"),
    ]
