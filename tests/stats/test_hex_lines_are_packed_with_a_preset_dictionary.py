"""A game's packed hex lines are compressed with a preset dictionary of bot games' lines
(issue 25, bytes per game): each value names it, values packed before it (plain zlib) read
as they are, and a value naming a dictionary this code lacks is refused by name."""

import zlib

import pytest
from stats_support import verified_games

from stats.models import HexLines
from stats.services import hex_packing

pytestmark = pytest.mark.django_db


@pytest.fixture
def lines(django_capture_on_commit_callbacks) -> list[list[tuple]]:
    games = verified_games(django_capture_on_commit_callbacks, "deep-vents", 4, 3, seed="zdict")
    packed = HexLines.objects.filter(game__in=games).values_list("packed", flat=True)
    return [hex_packing.unpack(bytes(value)) for value in packed]


def test_packed_lines_name_the_dictionary_and_take_well_under_plain_zlibs_bytes(lines):
    for game in lines:
        packed = hex_packing.pack(game)
        plain = zlib.compress(hex_packing.layout(game), 9)

        assert int.from_bytes(packed[2:6], "big") == zlib.adler32(hex_packing.HEXES.data)
        assert len(packed) < len(plain) * 0.8  # about 0.62 on the benchmark's games
        assert hex_packing.unpack(packed) == game


def test_lines_packed_without_a_dictionary_read_as_they_were(lines):
    for game in lines:
        assert hex_packing.unpack(zlib.compress(hex_packing.layout(game), 9)) == game


def test_a_value_naming_an_unknown_dictionary_is_refused_by_name(lines):
    compressor = zlib.compressobj(9, zdict=b"not a dictionary of this code")
    packed = compressor.compress(hex_packing.layout(lines[0])) + compressor.flush()

    with pytest.raises(ValueError, match="unknown dictionary"):
        hex_packing.unpack(packed)
