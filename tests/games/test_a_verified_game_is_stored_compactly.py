"""What a verified game stores is kept small (issue 25, benchmarks/storage_per_game.py): the
raw log zlib-compressed yet read back exactly as sent, and the per-hex statistics lines as
whole counts with 0 stored as NULL and no win-weighted twins, which the cubes derive from
the seat line (their sums are checked against the games in test_stats_page_numbers)."""

import json
import zlib

import pytest
from django.db import connection
from games_support import human_log, submit  # noqa: F401 (submit is a fixture)
from stats_support import verified_games

from games.models import GameLog
from stats.models import HEX_DERIVED, HexCube, HexLine, SeatLine
from stats.services.aggregate import fold_deltas

pytestmark = pytest.mark.django_db

# A log as sent: odd spacing, an escaped character and one beyond ASCII, kept as they are.
SENT = json.dumps(human_log(seed=4), indent=1).replace('"Nemo"', '"N\\u00e9mo"') + "\n"


def stored_raw(log_id: int):
    with connection.cursor() as cursor:
        cursor.execute("SELECT raw FROM games_gamelog WHERE id = %s", [log_id])
        return cursor.fetchone()[0]


def test_a_raw_log_is_stored_compressed_and_read_back_exactly_as_sent(submit):  # noqa: F811
    log = submit(SENT)

    stored = bytes(stored_raw(log.pk))
    assert zlib.decompress(stored).decode() == SENT
    assert len(stored) < len(SENT.encode()) / 4
    assert GameLog.objects.get(pk=log.pk).raw == SENT
    assert GameLog.objects.filter(pk=log.pk).values_list("raw", flat=True).get() == SENT


def test_a_log_stored_before_compression_is_read_as_it_was(submit):  # noqa: F811
    log = submit(SENT)
    with connection.cursor() as cursor:  # as migration 0011 leaves older rows
        cursor.execute(
            "UPDATE games_gamelog SET raw = %s WHERE id = %s",
            [connection.Database.Binary(SENT.encode()), log.pk],
        )

    assert GameLog.objects.get(pk=log.pk).raw == SENT


def test_hex_lines_store_whole_counts_zero_as_null_and_the_cube_derives_the_twins(
    django_capture_on_commit_callbacks,
):
    games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 2, seed="compact")
    fold_deltas()
    lines = list(HexLine.objects.filter(seat__game__in=games).select_related("seat"))

    assert lines
    assert not any(hasattr(line, name) for line in lines[:1] for name in HEX_DERIVED)
    offered = [line.offered for line in lines]
    assert None in offered and 0 not in offered  # a hex never offered to the seat: NULL
    owned_wins = sum(line.seat.wins for line in lines if line.owned)
    passed_expected = sum(line.seat.expected for line in lines if line.passed)
    cubes = HexCube.objects.filter(game_type="deep-vents")
    assert sum(cubes.values_list("owned_wins", flat=True)) == pytest.approx(owned_wins)
    assert sum(cubes.values_list("passed_expected", flat=True)) == pytest.approx(passed_expected)
    assert owned_wins > 0 and passed_expected > 0
    assert SeatLine.objects.filter(game__in=games).count() == 8
