"""The players' hex tally (issue 25: the player page read every one of a player's games'
hex lines for its favourite hexes), and each packed seat line's player, which the fold and a
rebuild sum it by: the seat lines stored before are packed again with their seats' players
(format 2), the tally filled from the hex lines; going back takes the players out again."""

import json
from collections import Counter, defaultdict

import django.db.models.deletion
import numpy
from django.db import migrations, models

from stats.services import hex_packing, seat_packing

CHUNK = 2000  # games per query
TAKEN = hex_packing.HEX_LINE_COUNTERS.index("taken")


def repacked(packed: bytes, players: dict[int, int | None] | None) -> bytes:
    """A packed value with each seat's player set (format 2), or taken out (format 1)."""
    value = json.loads(seat_packing.SEATS.decompress(packed))
    value[0] = seat_packing.FORMAT if players is not None else seat_packing.WITHOUT_PLAYERS
    value[6] = [
        [*seat[:7], players.get(seat[0])] if players is not None else seat[:7] for seat in value[6]
    ]
    return seat_packing.SEATS.compress(json.dumps(value, separators=(",", ":")).encode())


def chunks(model):
    games = list(model.objects.order_by("game_id").values_list("game_id", flat=True))
    for start in range(0, len(games), CHUNK):
        yield games[start : start + CHUNK]


def add_players(apps, schema_editor):
    SeatLines = apps.get_model("stats", "SeatLines")
    HexLines = apps.get_model("stats", "HexLines")
    GameSeat = apps.get_model("games", "GameSeat")
    PlayerHexTally = apps.get_model("stats", "PlayerHexTally")
    taken = defaultdict(Counter)
    for chunk in chunks(SeatLines):
        players = defaultdict(dict)
        for game_id, seat, player_id in GameSeat.objects.filter(game_id__in=chunk).values_list(
            "game_id", "seat", "player_id"
        ):
            players[game_id][seat] = player_id
        rows = list(SeatLines.objects.filter(game_id__in=chunk))
        for row in rows:
            row.packed = repacked(bytes(row.packed), players[row.game_id])
        SeatLines.objects.bulk_update(rows, ["packed"])
        for game_id, packed in HexLines.objects.filter(game_id__in=chunk).values_list(
            "game_id", "packed"
        ):
            seats, hexes, counts = hex_packing.unpack_matrix(bytes(packed))
            for line in numpy.flatnonzero(counts[:, TAKEN]).tolist():
                player = players[game_id].get(seats[line])
                if player is not None:
                    taken[player][hexes[line]] += int(counts[line, TAKEN])
    PlayerHexTally.objects.bulk_create(
        (PlayerHexTally(player_id=player, taken=dict(hexes)) for player, hexes in taken.items()),
        batch_size=CHUNK,
    )


def take_players_out(apps, schema_editor):
    SeatLines = apps.get_model("stats", "SeatLines")
    for chunk in chunks(SeatLines):
        rows = list(SeatLines.objects.filter(game_id__in=chunk))
        for row in rows:
            row.packed = repacked(bytes(row.packed), None)
        SeatLines.objects.bulk_update(rows, ["packed"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_recording_draft_revision"),
        ("players", "0004_player_stats_refreshed_at_removed"),
        ("stats", "0011_cube_by_month_and_strategy"),
    ]

    operations = [
        migrations.CreateModel(
            name="PlayerHexTally",
            fields=[
                (
                    "player",
                    models.OneToOneField(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="players.player",
                    ),
                ),
                (
                    "taken",
                    models.JSONField(default=dict, help_text="Hex type -> times taken (none at 0)"),
                ),
            ],
        ),
        migrations.CreateModel(
            name="PlayerHexTallyDelta",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("player", models.BigIntegerField()),
                ("hex", models.CharField(max_length=40)),
                ("n", models.BigIntegerField(default=0)),
                ("taken", models.FloatField(default=0)),
            ],
        ),
        migrations.RunPython(add_players, take_players_out),
    ]
