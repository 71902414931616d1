"""The raw logs' preset dictionary (common.preset_dictionary; issue 25, bytes per game).

With it a 4-player Deep Vents log of 11 KB takes about 480 bytes instead of plain zlib's
1,010. `python -m games.log_dictionary NAME` writes a new dictionary from bot games of every
game type (log_dictionaries/NAME.zdict); LOGS.written names the one logs are written with.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from common.preset_dictionary import PresetDictionary

# Level 8: a compact 4-player Deep Vents log takes 464 bytes in 0.18 ms (9: 459 in 0.25, 7:
# 485 in 0.11), one sent with json.dumps's spaces 631 (9: 626, 7: 666): below 8 zlib looks
# for matches along shorter chains and misses much of the dictionary (2026-12-06).
LOGS = PresetDictionary(Path(__file__).resolve().parent / "log_dictionaries", "1.zdict", level=8)

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
    print(f"wrote {LOGS.write(f'{sys.argv[1]}.zdict', build())}")
