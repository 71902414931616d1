"""A game's seat and round lines are packed into one row (issue 25, bytes per game), with a
preset dictionary of their own: unpacked, they are the lines replay derives, the derived
columns (expected, score_bin, score_sq) included; a format this code does not read is
refused by name."""

import json
import zlib

import pytest
from stats_support import seat_lines_of, verified_games

from games.models import Game
from stats.models import SeatLines
from stats.services import seat_packing
from stats.services.lines import build_lines

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("game_id", "players", "with_rounds"),
    [("deep-vents", 4, False), ("deep-dive", 3, True), ("deep-sea-adventure", 3, True)],
)
def test_stored_lines_are_the_lines_replay_derives(
    django_capture_on_commit_callbacks, game_id, players, with_rounds
):
    games = verified_games(django_capture_on_commit_callbacks, game_id, players, 2, seed="pack")

    for game in games:
        stored = SeatLines.objects.get(game=game)
        derived = build_lines(Game.objects.get(pk=game.pk))  # replayed from the log

        assert seat_packing.unpack(game.pk, stored.month, bytes(stored.packed)) == (
            derived.seats,
            derived.rounds,
        )
        assert bool(derived.rounds) is with_rounds
        assert seat_lines_of(game) == derived.seats


def test_four_seat_lines_take_well_under_plain_zlibs_bytes(django_capture_on_commit_callbacks):
    games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 3, seed="pack")

    for game in games:
        lines = build_lines(Game.objects.get(pk=game.pk))
        packed = seat_packing.pack(lines.seats, lines.rounds)
        plain = zlib.compress(seat_packing.layout(lines.seats, lines.rounds), 9)

        assert int.from_bytes(packed[2:6], "big") == zlib.adler32(seat_packing.SEATS.data)
        assert len(packed) < len(plain) * 0.8
        assert len(packed) < 150  # 850 bytes as four rows with their index


def test_lines_packed_in_a_format_this_code_does_not_read_are_refused_by_name(
    django_capture_on_commit_callbacks,
):
    (game,) = verified_games(django_capture_on_commit_callbacks, "deep-vents", 2, 1, seed="pack")
    stored = SeatLines.objects.get(game=game)
    value = json.loads(seat_packing.SEATS.decompress(bytes(stored.packed)))
    value[0] = seat_packing.FORMAT + 1

    with pytest.raises(ValueError, match="format 2"):
        seat_packing.unpack(game.pk, stored.month, zlib.compress(json.dumps(value).encode()))
