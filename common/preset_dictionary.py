"""zlib with a preset dictionary (RFC 1950's FDICT), for small values stored one by one.

A value compressed alone spends most of its bytes spelling out what every value of its kind
says; a dictionary of typical values lets zlib refer to those instead (issue 25, bytes per
game: a raw log, a game's packed hex lines). Each value names its dictionary by the Adler-32
in zlib's own header, so it always reads with the dictionary it was written with: a
directory's `*.zdict` files are never changed or removed; a better dictionary is added under
a new name and becomes the one written. Values without one (plain zlib) read as they are.
"""

from __future__ import annotations

import zlib
from functools import cached_property
from pathlib import Path

FDICT = 0x20  # the flag byte's bit saying a dictionary's Adler-32 follows the header
WINDOW = 32768  # zlib's window: a dictionary's bytes beyond it are never referred to


# zlib's level for values written (issue 25: bytes per game, and CPU per verified log). On
# a game's packed hex lines level 9 took 1.14 ms for 379 bytes, 7 0.16 ms for 397, 6 0.11
# for 404 (2026-12-06); the logs and the hex lines choose their own (games.log_dictionary,
# stats.services.hex_packing). Values written at any level read the same way.
LEVEL = 7


class PresetDictionary:
    def __init__(
        self,
        directory: Path,
        written: str,
        level: int = LEVEL,
        strategy: int = zlib.Z_DEFAULT_STRATEGY,
    ) -> None:
        self.directory = directory
        self.written = written  # the file new values are compressed with
        self.level = level
        self.strategy = strategy  # zlib's: values written with any read the same way

    @cached_property
    def dictionaries(self) -> dict[int, bytes]:
        """Every dictionary ever written with, by its Adler-32."""
        found = (path.read_bytes() for path in sorted(self.directory.glob("*.zdict")))
        return {zlib.adler32(data): data for data in found}

    @cached_property
    def data(self) -> bytes:
        return (self.directory / self.written).read_bytes()

    @cached_property
    def prepared(self) -> zlib._Compress:
        """A compressor that has read the dictionary, copied for each value: setting a
        32 KB dictionary costs about as much as compressing a small value."""
        return zlib.compressobj(
            self.level, zlib.DEFLATED, zlib.MAX_WBITS, 8, self.strategy, zdict=self.data
        )

    def compress(self, value: bytes) -> bytes:
        compressor = self.prepared.copy()
        return compressor.compress(value) + compressor.flush()

    def decompress(self, value: bytes) -> bytes:
        """A value `compress` wrote, or plain zlib's."""
        if not value[1] & FDICT:
            return zlib.decompress(value)
        named = int.from_bytes(value[2:6], "big")
        zdict = self.dictionaries.get(named)
        if zdict is None:
            raise ValueError(f"compressed with an unknown dictionary (Adler-32 {named:08x})")
        decompressor = zlib.decompressobj(zdict=zdict)
        return decompressor.decompress(value) + decompressor.flush()

    def write(self, name: str, data: bytes) -> Path:
        """Store a new dictionary (never over an old one: stored values name it)."""
        target = self.directory / name
        if target.exists():
            raise FileExistsError(f"{target} exists: a dictionary is never changed")
        target.write_bytes(data[-WINDOW:])
        return target
