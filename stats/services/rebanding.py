"""Bands moved by a ratings catch-up: the counted seats banded again.

A seat's band is its player's Elo going into the game (stats.services.bands). A game
verified older than games already rated, or a retraction, has the rater redo the games from
it on (ratings.services.replay), and their Elo going in moves: a band counted for them before
is then not the one a rebuild reads from the recorded Elo, unless it is banded again. The
rater tells what moved (ratings.signals.elo_going_in_moved, in its transaction); the games
whose lines hold another band get their seat lines again, and the cubes a delta of the lines
that moved (the new lines less the old), so the statistics equal a rebuild's at once.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from common.cache import STATS, bump_on_commit
from common.database import try_lock
from players.services import MERGE_LOCK
from stats.models import SeatLines
from stats.services.aggregate import Sums, insert_deltas, line_sums, seat_lines_rewritten
from stats.services.bands import band_of

logger = logging.getLogger(__name__)

GoingIn = Mapping[tuple[int, int], float | None]  # (game id, player id) -> Elo going in


def reband(
    game_type: str,
    moved: Mapping[tuple[int, int], tuple[float | None, float | None]],
    newly_rated: GoingIn,
) -> int:
    """Band again the seats whose Elo going in moved to another band (`moved`: before, now)
    and those of games rated for the first time (banded before the rater took them in, which
    the catch-up may have moved: ratings.services.running_elo); returns the games whose
    lines changed. Only their lines are read twice more and written again."""
    bands = {
        key: band_of(now) for key, (before, now) in moved.items() if band_of(before) != band_of(now)
    }
    bands |= {key: band_of(now) for key, now in newly_rated.items()}
    if not bands:
        return 0
    # The lines name players: a merge moving them meanwhile would lose its move or this
    # one (both rewrite the packed value). It waits for this transaction, as for a
    # verification's (MERGE_LOCK). A merge under way holds the ratings' ledger next
    # (its recompute), which this one holds: rather than wait for each other, the bands
    # stay as they were, for rebuild_stats, as a merge's own recompute leaves them.
    if not try_lock(MERGE_LOCK, shared=True):
        logger.warning("a players' merge is under way: %s games keep their bands", len(bands))
        return 0
    rebanded = seat_lines_rewritten(
        sorted({game_id for game_id, _ in bands}),
        lambda game_id, seat: seat._replace(band=bands.get((game_id, seat.player), seat.band)),
    )
    if not rebanded:
        return 0
    game_ids = [lines.game_id for lines in rebanded]
    taken = line_sums(game_ids, -1)
    SeatLines.objects.bulk_update(rebanded, ["packed"])
    insert_deltas(netted(taken, line_sums(game_ids)))
    bump_on_commit(STATS, game_type)
    return len(rebanded)


def netted(taken: Sums, added: Sums) -> Sums:
    """The two sums added key by key, the keys they cancel out on left out: those of lines
    whose band did not move."""
    net: Sums = {}
    for spec, by_key in added.items():
        summed = {key: list(values) for key, values in taken[spec].items()}
        for key, values in by_key.items():
            total = summed.setdefault(key, list(spec.zeros))
            for at, value in enumerate(values):
                total[at] += value
        net[spec] = {key: total for key, total in summed.items() if any(total)}
    return net
