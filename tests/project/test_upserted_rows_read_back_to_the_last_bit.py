"""upsert_rows sends PostgreSQL its rows as one JSON text (issue 25, CPU per verified log):
every float reads back to the last bit (thirds, the smallest and largest, subnormals, minus
zero on PostgreSQL), datetimes to the microsecond whatever their offset, text with quotes,
backslashes and other scripts as written, nulls as nulls; on SQLite through its own
statement."""

import datetime
import random
import struct

import pytest
from django.db import connection

from common.database import upsert_rows
from players.models import Player
from ratings.models import Rating

pytestmark = pytest.mark.django_db

FIELDS = ["player", "game_type", "rating", "mu", "sigma", "games", "wins", "last_played"]


def awkward_floats(count: int) -> list[float]:
    rng = random.Random(25)
    floats = [1 / 3, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1 + 0.2]
    if connection.vendor == "postgresql":  # SQLite stores minus zero as zero, by any statement
        floats.append(-0.0)
    while len(floats) < count:
        (value,) = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))
        if value == value and abs(value) != float("inf"):
            floats.append(value)
    return floats


def bits(rows: list[tuple]) -> list[tuple]:
    return [tuple(v.hex() if isinstance(v, float) else v for v in row) for row in rows]


def test_every_value_upserted_reads_back_as_it_was_sent():
    players = [Player.objects.create(handle=f"p{n}", display_name=f"p{n}").pk for n in range(40)]
    floats = awkward_floats(3 * 2 * len(players))
    india = datetime.timezone(datetime.timedelta(hours=5, minutes=30))
    moment = datetime.datetime(2026, 12, 7, 0, 40, 1, 999_999, tzinfo=india)
    names = ["deep-vents", 'quote\'s "and" \\ back', "海の底 ✓"]
    sent = [
        (
            player,
            names[n % 3],
            floats.pop(),
            floats.pop(),
            floats.pop(),
            n * 1000,
            n,
            None if n % 4 == 0 else moment + datetime.timedelta(microseconds=n),
        )
        for n, player in enumerate(players)
    ]
    for rows in (sent[:25], sent):  # inserted, then updated with new values
        if rows is sent:
            rows = [(*row[:2], floats.pop(), floats.pop(), floats.pop(), *row[5:]) for row in rows]
        upsert_rows(Rating, FIELDS, rows, unique=["player", "game_type"], update=FIELDS[2:])
        stored = Rating.objects.order_by("player_id").values_list("player_id", *FIELDS[1:])
        assert bits(list(stored)) == bits(rows)
