"""What a verified game stores is kept small (issue 25, benchmarks/storage_per_game.py): the
raw log zlib-compressed with the logs' preset dictionary yet read back exactly as sent, and
the per-hex statistics lines packed a game to a row as whole counts, without the
win-weighted twins, which the cubes derive from the seat line (their sums are checked
against the games in test_stats_page_numbers)."""

import json
import zlib

import pytest
from django.db import connection
from games_support import human_log, submit  # noqa: F401 (submit is a fixture)
from stats_support import seat_lines_of, verified_games

from games import log_dictionary
from games.models import Game, GameLog
from stats.models import HEX_DERIVED, HEX_LINE_COUNTERS, PAR_SCALE, HexCube, HexLines
from stats.services import hex_packing
from stats.services.aggregate import fold_deltas
from stats.services.lines import build_lines

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
    assert log_dictionary.LOGS.decompress(stored).decode() == SENT
    # The dictionary it names, and what it saves over plain zlib.
    assert int.from_bytes(stored[2:6], "big") == zlib.adler32(log_dictionary.LOGS.data)
    assert len(stored) < len(zlib.compress(SENT.encode(), 9))
    assert GameLog.objects.get(pk=log.pk).raw == SENT
    assert GameLog.objects.filter(pk=log.pk).values_list("raw", flat=True).get() == SENT


def test_a_deep_vents_log_takes_well_under_the_bytes_of_plain_zlib(
    django_capture_on_commit_callbacks,
):
    games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 2, seed="compact")

    for game in games:
        plain = zlib.compress(GameLog.objects.get(pk=game.log_id).raw.encode())
        # Sent with json.dumps's spaces: about 0.6 (compact logs, as the benchmark's, 0.5).
        assert len(bytes(stored_raw(game.log_id))) < len(plain) * 0.7


def test_a_log_compressed_without_the_dictionary_is_read_as_it_was(submit):  # noqa: F811
    log = submit(SENT)
    with connection.cursor() as cursor:  # as logs stored before the dictionary are
        cursor.execute(
            "UPDATE games_gamelog SET raw = %s WHERE id = %s",
            [connection.Database.Binary(zlib.compress(SENT.encode())), log.pk],
        )

    assert GameLog.objects.get(pk=log.pk).raw == SENT


def test_a_log_stored_before_compression_is_read_as_it_was(submit):  # noqa: F811
    log = submit(SENT)
    with connection.cursor() as cursor:  # as migration 0011 leaves older rows
        cursor.execute(
            "UPDATE games_gamelog SET raw = %s WHERE id = %s",
            [connection.Database.Binary(SENT.encode()), log.pk],
        )

    assert GameLog.objects.get(pk=log.pk).raw == SENT


def test_hex_lines_are_packed_a_game_to_a_row_with_the_lines_replay_derives(
    django_capture_on_commit_callbacks,
):
    games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 2, seed="compact")

    for game in games:
        packed = bytes(HexLines.objects.get(game=game).packed)
        derived = build_lines(Game.objects.get(pk=game.pk)).hexes  # replayed from the log

        assert hex_packing.unpack(packed) == derived.rows()
        assert len(derived.seats) > 40 and len(packed) < 1500  # rows cost 8.7 KB a game
    assert [len(seat_lines_of(game)) for game in games] == [4, 4]


def test_the_hex_cube_derives_the_win_weighted_twins_from_the_seat_lines(
    django_capture_on_commit_callbacks,
):
    games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 2, seed="compact")
    fold_deltas()
    wins = {(line.game_id, line.seat): line for game in games for line in seat_lines_of(game)}
    owned_wins, passed_par = 0.0, 0
    for game in games:
        for seat, _, *counts in hex_packing.unpack(bytes(game.stat_hexes.packed)):
            line = wins[(game.pk, seat)]
            owned_wins += line.wins * counts[HEX_LINE_COUNTERS.index("owned")]
            # The par in whole numbers (stats.models.PAR_SCALE).
            passed_par += PAR_SCALE // line.player_count * counts[HEX_LINE_COUNTERS.index("passed")]

    assert not set(HEX_DERIVED) & set(HEX_LINE_COUNTERS)
    cubes = HexCube.objects.filter(game_type="deep-vents")
    assert sum(cubes.values_list("owned_wins", flat=True)) == pytest.approx(owned_wins)
    assert sum(cubes.values_list("passed_expected", flat=True)) == passed_par
    assert owned_wins > 0 and passed_par > 0
