"""A Deep Vents game's per-hex lines packed into one compressed value (stats.models.HexLines).

A 4-player game has some eighty hex lines (a seat and a hex type each, with whole counts,
most of them 0). As rows they cost about 8.7 KB a game with their indexes, six times the
compressed log (issue 25); packed they cost some 400 bytes. Only the statistics code reads
them (a game's cube deltas, its retraction, a rebuild of the hex cube), always a whole game
at a time, so nothing is lost by keeping them out of SQL's reach.

The layout, zlib-compressed with a preset dictionary of bot games' hex lines (HEXES,
common.preset_dictionary: some 380 bytes a 4-player game instead of 610; values packed
before it read as they are), with the counters column by column (a column of one counter
over the game's lines is mostly zeros, which zlib folds into almost nothing):

    format (1 byte), counters per line (1), value type ("B" or "i", 1), lines (2),
    the hex types' names joined by newlines, NUL,
    each line's seat (1 byte each), each line's hex type's index in the names (1 byte each),
    then per counter of HEX_LINE_COUNTERS, in that order, its value on every line.

The counters are read in HEX_LINE_COUNTERS' order: a change to that list is a change of
definitions, after which `rebuild_stats --from-facts` derives every game's lines again.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy

from common.preset_dictionary import PresetDictionary
from stats.models import HEX_LINE_COUNTERS

FORMAT = 1
HEADER = struct.Struct("<BBcH")
WIDTH = len(HEX_LINE_COUNTERS)
# A new dictionary: HEXES.write("NAME.zdict", build()) in `manage.py shell`. Level 6 with
# zlib's filtered strategy (the counters' columns are runs of small numbers): 0.11 ms a
# game for 399 bytes, where level 7 took 0.16 ms for 397 (200 bot games, 2026-12-06; level
# 5 filtered: 0.06 ms for 414). Values written at any level read the same way.
HEXES = PresetDictionary(
    Path(__file__).resolve().parent.parent / "hex_dictionaries",
    "1.zdict",
    level=6,
    strategy=zlib.Z_FILTERED,
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
    (floats are cut towards zero, as int() cuts them), written a counter at a time by
    numpy: some eighty lines of 37 counters a game took a millisecond in Python."""
    names = sorted(set(hexes))
    index = {name: i for i, name in enumerate(names)}
    whole = counts.astype(numpy.int64, copy=False)
    small = not whole.size or (whole.min() >= 0 and whole.max() <= 255)
    typecode = "B" if small else "i"
    body = bytearray(HEADER.pack(FORMAT, WIDTH, typecode.encode(), len(hexes)))
    body += "\n".join(names).encode() + b"\0"
    body += seats
    body += bytes(index[name] for name in hexes)
    body += whole.T.astype(numpy.uint8 if small else numpy.dtype("<i4")).tobytes()
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
    hexes = [names[i] for i in body[at + count : at + 2 * count]]
    dtype = numpy.uint8 if typecode == b"B" else numpy.dtype("<i4")
    values = numpy.frombuffer(body, dtype=dtype, offset=at + 2 * count)
    return HexMatrix(body[at : at + count], hexes, values.reshape(width, count).T)


def check_format(version: int, width: int) -> None:
    if version != FORMAT or width != WIDTH:
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
