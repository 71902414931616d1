"""A game's hex lines are packed as format 2 (issue 25, CPU per verified log and bytes per
game): a bit per count says which are not 0, and only those are written, so zlib reads a
third of the bytes. Lines packed before, every count written out (format 1, with the first
dictionary), read as the same lines."""

import struct
import zlib

import numpy
import pytest

from common.preset_dictionary import PresetDictionary
from engines import get_game, replay
from engines.core.simulate import simulate
from stats.services import hex_packing
from stats.services.game_lines import deep_vents_hex_lines_of

# As format 1 was written: its dictionary, level and strategy.
FORMAT_1 = PresetDictionary(
    hex_packing.HEXES.directory, "1.zdict", level=6, strategy=zlib.Z_FILTERED
)


def packed_as_format_1(matrix: hex_packing.HexMatrix) -> bytes:
    """The lines laid out as format 1 laid them out: every count, counter by counter."""
    names = sorted(set(matrix.hexes))
    whole = matrix.counts.astype(numpy.int64)
    small = not whole.size or (whole.min() >= 0 and whole.max() <= 255)
    body = struct.pack("<BBcH", 1, hex_packing.WIDTH, b"B" if small else b"i", len(matrix.hexes))
    body += "\n".join(names).encode() + b"\0" + matrix.seats
    body += bytes(names.index(name) for name in matrix.hexes)
    body += whole.T.astype(numpy.uint8 if small else numpy.dtype("<i4")).tobytes()
    return FORMAT_1.compress(body)


@pytest.fixture(scope="module")
def matrices() -> list[hex_packing.HexMatrix]:
    game = get_game("deep-vents")
    logs = simulate(game, game.ruleset(None), 4, 6, "hex-bits")
    return deep_vents_hex_lines_of([replay(log, collect_facts=True).facts for log in logs])


def test_lines_are_packed_as_format_2_in_fewer_bytes_than_format_1(matrices):
    for matrix in matrices:
        packed = hex_packing.pack_matrix(*matrix)

        assert hex_packing.HEXES.decompress(packed)[0] == hex_packing.FORMAT == 2
        assert hex_packing.unpack(packed) == matrix.rows()
        assert len(packed) < len(packed_as_format_1(matrix))


def test_lines_packed_as_format_1_read_as_the_same_lines(matrices):
    for matrix in matrices:
        unpacked = hex_packing.unpack_matrix(packed_as_format_1(matrix))

        assert hex_packing.unpack(packed_as_format_1(matrix)) == matrix.rows()
        assert (
            unpacked.counts.dtype
            == hex_packing.unpack_matrix(hex_packing.pack_matrix(*matrix)).counts.dtype
        )


@pytest.mark.parametrize("scale", [300, -1])
def test_counts_beyond_a_byte_or_below_0_keep_their_values(matrices, scale):
    matrix = matrices[0]._replace(counts=matrices[0].counts * scale)

    assert hex_packing.unpack(hex_packing.pack_matrix(*matrix)) == matrix.rows()
    assert hex_packing.unpack(packed_as_format_1(matrix)) == matrix.rows()


def test_a_game_without_hex_lines_packs_and_reads_as_none():
    (matrix,) = deep_vents_hex_lines_of([[]])

    assert hex_packing.unpack(hex_packing.pack_matrix(*matrix)) == []
