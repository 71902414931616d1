"""A game's seat lines and round lines packed into one compressed value (stats.models.SeatLines).

As rows, a 4-player game's four seat lines cost some 850 bytes with their index, the
largest share of a verified game's bytes (issue 25); packed, some 100. The statistics code
reads them a whole game at a time (a game's cube deltas, its retraction, a rebuild), and
sums them in Python as it sums the packed hex lines (stats.services.aggregate.line_sums).

The layout, compact JSON zlib-compressed with a preset dictionary of bot games' seat lines
(SEATS, common.preset_dictionary; a kind of value of its own, so a dictionary of its own):

    [format, game type, source, player count, ruleset, winning bid,
     [[seat, band, strategy, turn order, score, wins, rank, player id], ...],
     [[seat, round, moment, points, drowned, depth], ...]]

Each seat carries its player's id (null for a bot's seat) so that the players' hex tally
(stats.models.PlayerHexTally) is summed from what the fold and a rebuild read anyway, never
from the game seats; a players' merge rewrites the ids (stats.receivers). Format 1, before
the ids, reads with no player (migration 0012 fills them in, and takes them out going back).

The month is the row's own column (SeatLines.month). What a line derives from these is not
stored: `expected` (1 / player count), `score_bin` (the score's floor) and `score_sq`.
"""

from __future__ import annotations

import datetime
import json
import math
from collections.abc import Sequence
from pathlib import Path

import orjson

from common.preset_dictionary import PresetDictionary
from stats.services.game_lines import RoundRow
from stats.services.lines import SeatRow

FORMAT = 2
WITHOUT_PLAYERS = 1  # the format before the seats carried their player
# A new dictionary: SEATS.write("NAME.zdict", build()) in `manage.py shell`.
SEATS = PresetDictionary(Path(__file__).resolve().parent.parent / "seat_dictionaries", "1.zdict")


def pack(seats: Sequence[SeatRow], rounds: Sequence[RoundRow]) -> bytes:
    """One game's lines (its seats' game-wide columns are the first seat's) as one value."""
    return SEATS.compress(layout(seats, rounds))


def layout(seats: Sequence[SeatRow], rounds: Sequence[RoundRow]) -> bytes:
    """The lines laid out as the module's docstring says, uncompressed."""
    first = seats[0]
    value = [
        FORMAT,
        first.game_type,
        first.source,
        first.player_count,
        first.ruleset,
        first.winning_bid,
        [
            [s.seat, s.band, s.strategy, s.turn_order, s.score, s.wins, s.rank, s.player]
            for s in seats
        ],
        [list(row) for row in rounds],
    ]
    # orjson, in C (issue 25: a game's layout 1.9 us against json.dumps' 8.6): the bytes
    # json.dumps(value, separators=(",", ":"), ensure_ascii=False) wrote for what lines
    # hold (names, ids, whole and plain floats); a float under 1e-4 is spelt otherwise
    # (2.5e-7, not 2.5e-07) and reads back the same.
    return orjson.dumps(value)


def unpack(
    game_id: int, month: datetime.date, packed: bytes
) -> tuple[list[SeatRow], list[RoundRow]]:
    """The lines `pack` was given, for the game of this id and month."""
    version, game_type, source, player_count, ruleset, winning_bid, seats, rounds = json.loads(
        SEATS.decompress(packed)
    )
    if version not in (FORMAT, WITHOUT_PLAYERS):
        raise ValueError(
            f"seat lines packed as format {version}; this code reads format {FORMAT} "
            "(rebuild_stats --from-facts derives them again)"
        )
    expected = 1 / player_count
    return [
        SeatRow(
            game_id=game_id,
            seat=seat,
            game_type=game_type,
            source=source,
            player_count=player_count,
            ruleset=ruleset,
            month=month,
            band=band,
            strategy=strategy,
            turn_order=turn_order,
            winning_bid=winning_bid,
            score_bin=math.floor(score),
            wins=wins,
            expected=expected,
            score=score,
            score_sq=score * score,
            rank=rank,
            player=player[0] if player else None,
        )
        for seat, band, strategy, turn_order, score, wins, rank, *player in seats
    ], [RoundRow(*row) for row in rounds]


def build() -> bytes:
    """A dictionary of bot games' seat and round lines of every game, laid out as they are
    packed, with every band and source a line may name."""
    from engines import GAMES, get_game, replay
    from engines.core.simulate import simulate
    from games.models import Source
    from stats.adapters import adapter_for
    from stats.services.bands import ALL_BANDS
    from stats.services.lines import GameLines

    bodies = []
    for game_id in GAMES:
        game = get_game(game_id)
        for number, log in enumerate(simulate(game, game.ruleset(None), 4, 12, "seat-dictionary")):
            ranks = sorted(log["result"]["scores"], reverse=True)
            seats = [
                SeatRow(
                    game_id=0,
                    seat=seat,
                    game_type=game_id,
                    source=Source.values[number % len(Source.values)],
                    player_count=len(log["players"]),
                    ruleset=log["ruleset"]["name"],
                    month=datetime.date(2026, 1, 1),
                    band=ALL_BANDS[(number + seat) % len(ALL_BANDS)],
                    strategy=player.get("strategy", ""),
                    turn_order=seat + 1,
                    winning_bid=-1,
                    score_bin=0,
                    wins=float(score == ranks[0]),
                    expected=0.25,
                    score=float(score),
                    score_sq=0.0,
                    rank=float(ranks.index(score) + 1),
                )
                for seat, (player, score) in enumerate(
                    zip(log["players"], log["result"]["scores"], strict=True)
                )
            ]
            lines = GameLines(seats=seats)
            adapter_for(game_id).add_lines(lines, replay(log, collect_facts=True).facts)
            bodies.append(layout(seats, lines.rounds))
    return b"".join(bodies)
