"""A Deep Vents game's per-hex lines packed into one compressed value (stats.models.HexLines).

A 4-player game has some eighty hex lines (a seat and a hex type each, with whole counts,
most of them 0). As rows they cost about 8.7 KB a game with their indexes, six times the
compressed log (issue 25); packed they cost some 360 bytes. Only the statistics code reads
them (a game's cube deltas, its retraction, a rebuild of the hex cube), always a whole game
at a time, so nothing is lost by keeping them out of SQL's reach.

The layout, zlib-compressed with a preset dictionary of bot games' hex lines (HEXES,
common.preset_dictionary; values packed before it read as they are):

    format (1 byte), counters per line (1), value type ("B" or "i", 1), lines (2),
    the hex types' names joined by newlines, NUL,
    each line's seat (1 byte each), each line's hex type's index in the names (1 byte each),
    then, counter by counter in HEX_LINE_COUNTERS' order and within a counter line by line,
    a bit for each value, set where it is not 0 (numpy's packbits: the first in the high
    bit, the last byte padded with 0s), then the values not 0, in the same order.

Five in six counts are 0: format 2 leaves them to the bits, so zlib reads some 1,170 bytes
a game instead of 2,900, faster and to fewer bytes (issue 25: a 4-player game's lines in
0.04 ms and 361 bytes, against 0.11 ms and 400 with every value written out, format 1,
which still reads: there every value follows the lines' hex types, counter by counter).

The counters are read in HEX_LINE_COUNTERS' order: a change to that list is a change of
definitions, after which `rebuild_stats --from-facts` derives every game's lines again.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy

from common.preset_dictionary import PresetDictionary
from stats.models import HEX_LINE_COUNTERS

FORMAT = 2
EVERY_VALUE = 1  # the format before: every value written out, 0s too
HEADER = struct.Struct("<BBcH")
WIDTH = len(HEX_LINE_COUNTERS)
# A new dictionary: HEXES.write("NAME.zdict", build()) in `manage.py shell`. Level 5: on
# format 2's layout 0.039 ms a game for 361 bytes, where level 4 took 0.033 ms for 373 and
# level 6 0.058 for 353 (300 of the benchmarks' bot games, 2026-12-06; format 1 at level 6
# with the filtered strategy: 0.106 ms for 400). Values written at any level read alike.
HEXES = PresetDictionary(
    Path(__file__).resolve().parent.parent / "hex_dictionaries", "2.zdict", level=5
)

# A hex line as packed and unpacked: (seat, hex type, *whole counts in HEX_LINE_COUNTERS).
HexCounts = tuple


class HexMatrix(NamedTuple):
    """A game's hex lines as they are packed: each line's seat (a byte each) and hex type,
    and a matrix of its counts (a row per line, a column per counter of HEX_LINE_COUNTERS)."""

    seats: bytes
    hexes: list[str]
    counts: numpy.ndarray

    def rows(self) -> list[HexCounts]:
        """Each line as (seat, hex type, *whole counts): as `pack` is given them."""
        whole = self.counts.astype(numpy.int64, copy=False).tolist()
        return [
            (seat, hex_id, *row)
            for seat, hex_id, row in zip(self.seats, self.hexes, whole, strict=True)
        ]


def pack(lines: Sequence[HexCounts]) -> bytes:
    """The lines of one game as one compressed value."""
    return HEXES.compress(layout(lines))


def pack_matrix(seats: bytes, hexes: Sequence[str], counts: numpy.ndarray) -> bytes:
    """pack, given the lines as unpack_matrix returns them: each line's seat and hex type,
    and a matrix of its counts (a row per line, a column per counter)."""
    return HEXES.compress(layout_matrix(seats, hexes, counts))


def layout(lines: Sequence[HexCounts]) -> bytes:
    """The lines of one game laid out as the module's docstring says, uncompressed."""
    counts = numpy.array([line[2:] for line in lines], dtype=numpy.int64).reshape(-1, WIDTH)
    return layout_matrix(bytes(line[0] for line in lines), [line[1] for line in lines], counts)


def layout_matrix(seats: bytes, hexes: Sequence[str], counts: numpy.ndarray) -> bytes:
    """layout of the lines as pack_matrix is given them. The counts are whole numbers
    (floats are cut towards zero, as int() cuts them), laid out a counter at a time by
    numpy: some eighty lines of 31 counters a game took a millisecond in Python."""
    names = sorted(set(hexes))
    index = {name: i for i, name in enumerate(names)}
    whole = counts.astype(numpy.int64, copy=False).T
    small = not whole.size or (whole.min() >= 0 and whole.max() <= 255)
    typecode = "B" if small else "i"
    body = bytearray(HEADER.pack(FORMAT, WIDTH, typecode.encode(), len(hexes)))
    body += "\n".join(names).encode() + b"\0"
    body += seats
    body += bytes(map(index.__getitem__, hexes))
    counted = whole != 0
    body += numpy.packbits(counted).tobytes()
    body += whole[counted].astype(numpy.uint8 if small else numpy.dtype("<i4")).tobytes()
    return bytes(body)


def unpack(packed: bytes) -> list[HexCounts]:
    """The lines `pack` was given, each counter a whole number (0 where none)."""
    return unpack_matrix(packed).rows()


def unpack_matrix(packed: bytes) -> HexMatrix:
    """The lines as a matrix of whole counts, a row per line and a column per counter of
    HEX_LINE_COUNTERS, beside each line's seat and hex type: what a rebuild sums, by numpy."""
    body = HEXES.decompress(packed)
    version, width, typecode, count = HEADER.unpack_from(body)
    check_format(version, width)
    at = HEADER.size
    end = body.index(b"\0", at)
    names = body[at:end].decode().split("\n")
    at = end + 1
    seats = body[at : at + count]
    hexes = [names[i] for i in body[at + count : at + 2 * count]]
    at += 2 * count
    dtype = numpy.uint8 if typecode == b"B" else numpy.dtype("<i4")
    if version == EVERY_VALUE:
        values = numpy.frombuffer(body, dtype=dtype, offset=at)
    else:
        bits = numpy.frombuffer(body, numpy.uint8, (width * count + 7) // 8, at)
        counted = numpy.unpackbits(bits, count=width * count).view(bool)
        values = numpy.zeros(width * count, dtype=dtype)
        values[counted] = numpy.frombuffer(body, dtype=dtype, offset=at + len(bits))
    return HexMatrix(seats, hexes, values.reshape(width, count).T)


def check_format(version: int, width: int) -> None:
    if version not in (FORMAT, EVERY_VALUE) or width != WIDTH:
        raise ValueError(
            f"hex lines packed as format {version} with {width} counters; this code reads "
            f"format {FORMAT} with {WIDTH} (rebuild_stats --from-facts derives them again)"
        )


def build() -> bytes:
    """A dictionary of the hex lines of bot games (of the games with hex lines), laid out as
    they are packed."""
    from engines import GAMES, get_game, replay
    from engines.core.simulate import simulate
    from stats.adapters import adapter_for
    from stats.services.lines import GameLines

    bodies = []
    for game_id in GAMES:
        if not adapter_for(game_id).has_hexes:
            continue
        game = get_game(game_id)
        for log in simulate(game, game.ruleset(None), 4, 20, "hex-dictionary"):
            lines = GameLines()
            adapter_for(game_id).add_lines(lines, replay(log, collect_facts=True).facts)
            bodies.append(layout_matrix(*lines.hexes))
    return b"".join(bodies)
