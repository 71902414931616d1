"""Seat lines and round lines packed a game to a row (issue 25): four seat lines a game cost
some 850 bytes as rows with their index (stats.services.seat_packing). Lines stored before
are packed as they are, and unpacked into rows again on the way back."""

from collections import defaultdict

import django.db.models.deletion
from django.db import migrations, models

from stats.services import seat_packing
from stats.services.game_lines import RoundRow
from stats.services.lines import SeatRow

CHUNK = 2000  # games per query
# The rows' columns: a seat line's player came later, packed only (0012).
ROW_FIELDS = tuple(name for name in SeatRow._fields if name != "player")


def pack_rows(apps, schema_editor):
    SeatLine = apps.get_model("stats", "SeatLine")
    RoundLine = apps.get_model("stats", "RoundLine")
    SeatLines = apps.get_model("stats", "SeatLines")
    games = list(SeatLine.objects.values_list("game_id", flat=True).distinct().order_by("game_id"))
    for start in range(0, len(games), CHUNK):
        chunk = games[start : start + CHUNK]
        seats = defaultdict(list)
        for row in (
            SeatLine.objects.filter(game_id__in=chunk)
            .order_by("game_id", "seat")
            .values_list(*ROW_FIELDS)
        ):
            seats[row[0]].append(SeatRow(*row))
        rounds = defaultdict(list)
        for game_id, *row in (
            RoundLine.objects.filter(seat__game_id__in=chunk)
            .order_by("seat__game_id", "round", "seat__seat")
            .values_list("seat__game_id", "seat__seat", *RoundRow._fields[1:])
        ):
            rounds[game_id].append(RoundRow(*row))
        SeatLines.objects.bulk_create(
            SeatLines(
                game_id=game_id,
                month=lines[0].month,
                packed=seat_packing.pack(lines, rounds[game_id]),
            )
            for game_id, lines in seats.items()
        )


def unpack_rows(apps, schema_editor):
    SeatLine = apps.get_model("stats", "SeatLine")
    RoundLine = apps.get_model("stats", "RoundLine")
    SeatLines = apps.get_model("stats", "SeatLines")
    for packed in SeatLines.objects.all().iterator(chunk_size=CHUNK):
        seats, rounds = seat_packing.unpack(packed.game_id, packed.month, bytes(packed.packed))
        saved = SeatLine.objects.bulk_create(
            SeatLine(**{name: getattr(row, name) for name in ROW_FIELDS}) for row in seats
        )
        ids = {line.seat: line.pk for line in saved}
        RoundLine.objects.bulk_create(
            RoundLine(seat_id=ids[seat], **dict(zip(RoundRow._fields[1:], values, strict=True)))
            for seat, *values in rounds
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_plain_indexes_without_like_ones"),
        ("stats", "0009_fewer_indexes_per_game"),
    ]

    operations = [
        migrations.CreateModel(
            name="SeatLines",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="stat_seats",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                (
                    "month",
                    models.DateField(help_text="First day of the month the game was played"),
                ),
                ("packed", models.BinaryField()),
            ],
        ),
        migrations.RunPython(pack_rows, unpack_rows),
        migrations.DeleteModel(name="RoundLine"),
        migrations.DeleteModel(name="SeatLine"),
    ]
