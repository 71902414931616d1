"""elo_changes writes pair_result and expected_score out (issue 25, CPU per verified log):
its changes are still those functions' sums, to the last bit, over random tables."""

import math
import random

from ratings import elo


def by_the_formulas(ratings: dict, ranks: dict, k: float) -> dict:
    step = k / (len(ranks) - 1)
    return {
        player: step
        * math.fsum(
            elo.pair_result(ranks[player], ranks[other])
            - elo.expected_score(ratings[player], ratings[other])
            for other in ranks
            if other != player
        )
        for player in ranks
    }


def test_random_tables_ties_included_change_as_the_pairwise_formulas_say():
    chosen = random.Random(25)
    for _ in range(3000):
        size = chosen.randint(2, 6)
        players = chosen.sample(range(1000), size)
        ratings = {p: chosen.choice([1500.0, chosen.uniform(600, 2600)]) for p in players}
        ranks = {p: chosen.randint(1, size) for p in players}
        k = chosen.choice([elo.DEFAULT_K, 16.0, 40.5])
        changes = elo.elo_changes(ratings, ranks, k)
        assert list(changes) == players
        assert changes == by_the_formulas(ratings, ranks, k)
        assert all(
            a.hex() == b.hex()
            for a, b in zip(
                changes.values(), by_the_formulas(ratings, ranks, k).values(), strict=True
            )
        )
