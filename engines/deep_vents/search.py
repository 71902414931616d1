"""Deep Vents for a searching player: what nobody can see, resampled for a playout, and the
kinds of decision.

The row and the stack's top hex are face up (DV-2); the hexes below the top are unknown to
everyone. A playout reshuffles them: the edition's hexes not yet revealed, in a fresh order
(a log may list only the part of the stack that was revealed, so the rest is rebuilt from
the edition's counts).
"""

from __future__ import annotations

import random
from collections import Counter

from engines.deep_vents.state import DeepVentsState


def resample(state: DeepVentsState, rng: random.Random) -> DeepVentsState:
    """A copy whose unrevealed stack is a fresh shuffle of the hexes not yet seen."""
    copy_ = state.clone()
    edition = copy_.edition
    revealed = copy_.stack[: copy_.next_in_stack]
    left = Counter(edition.stack_counts)
    left.subtract(kind.id for kind in revealed)
    unseen = [edition.hexes[hex_id] for hex_id, n in sorted(left.items()) for _ in range(n)]
    rng.shuffle(unseen)
    copy_.stack = revealed + unseen
    copy_.stack_complete = True
    return copy_


PHASES = {
    "bid": "bidding",
    "take": "drafting",
    "place": "placing",
    "activate": "triggering",
    "shell": "using shells",
    "decimate": "decimating",
}


def phase(state: DeepVentsState) -> str:
    """The kind of decision, for costs by phase (player pages)."""
    return PHASES.get(state.phase, state.phase)
