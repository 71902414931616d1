"""The raw logs' zlib compression with a preset dictionary (issue 25, bytes per game).

A log is compressed alone, so plain zlib spends most of its bytes spelling out what every
log says: the format's keys, event types, hex names, the ruleset. A preset dictionary of
typical logs (RFC 1950's FDICT) lets it refer to those instead: a 4-player Deep Vents log of
11 KB takes about 460 bytes instead of 1,010. The dictionary is named in each value by its
Adler-32 (zlib's own header field), so a value always reads with the dictionary it was
written with: the files in `log_dictionaries/` are never changed or removed, a better one is
added under a new number (`python -m games.log_dictionary N` writes one from bot games of
every game type) and WRITTEN names it. Values without a dictionary (plain zlib, written
before) read as they are.
"""

from __future__ import annotations

import json
import sys
import zlib
from functools import cache
from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent / "log_dictionaries"
WRITTEN = "1.zdict"  # the dictionary new logs are compressed with
LEVEL = 9  # written once per log, read seldom: the smaller output is worth the time
FDICT = 0x20  # the flag byte's bit saying a dictionary's Adler-32 follows the header


@cache
def dictionaries() -> dict[int, bytes]:
    """Every dictionary ever written with, by its Adler-32."""
    found = (path.read_bytes() for path in sorted(DIRECTORY.glob("*.zdict")))
    return {zlib.adler32(data): data for data in found}


@cache
def written() -> bytes:
    return (DIRECTORY / WRITTEN).read_bytes()


def compress(data: bytes) -> bytes:
    compressor = zlib.compressobj(LEVEL, zdict=written())
    return compressor.compress(data) + compressor.flush()


def decompress(value: bytes) -> bytes:
    """A value `compress` wrote (or plain zlib's)."""
    if not value[1] & FDICT:
        return zlib.decompress(value)
    named = int.from_bytes(value[2:6], "big")
    zdict = dictionaries().get(named)
    if zdict is None:
        raise ValueError(f"log compressed with an unknown dictionary (Adler-32 {named:08x})")
    decompressor = zlib.decompressobj(zdict=zdict)
    return decompressor.decompress(value) + decompressor.flush()


# What a dictionary holds, 32 KB in all (zlib's window): bot logs of every game type, the
# most of Deep Vents (the longest logs), written compactly and also with the spaces of
# Python's json.dumps (a log is stored as sent, in whatever spacing it was sent).
COMPACT, SPACED = (",", ":"), (", ", ": ")
SHARES = (
    ("deep-dive", COMPACT, 3072),
    ("deep-sea-adventure", COMPACT, 5120),
    ("deep-vents", SPACED, 10240),
    ("deep-vents", COMPACT, 14336),
)


def build() -> bytes:
    """A dictionary of bot games' logs: SHARES, in that order."""
    from engines import get_game
    from engines.core.simulate import simulate

    parts = []
    for game_id, separators, share in SHARES:
        game = get_game(game_id)
        logs = simulate(game, game.ruleset(None), 4, 4, "log-dictionary")
        text = "".join(json.dumps(log, separators=separators) for log in logs)
        parts.append(text.encode()[-share:])
    return b"".join(parts)


if __name__ == "__main__":
    target = DIRECTORY / f"{sys.argv[1]}.zdict"
    if target.exists():
        sys.exit(f"{target} exists: a dictionary is never changed (stored logs name it)")
    target.write_bytes(build())
    print(f"wrote {target} (Adler-32 {zlib.adler32(target.read_bytes()):08x})")
