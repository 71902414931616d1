"""How long the game page's reading of a stored analysis takes (engines/review.py): the log
replayed once, every decision and every swing's events named by the engine.

The analysis itself is made once with a tiny budget (its figures do not change the reading's
cost, only how many moves are marked); the review then runs `--repeats` times per game and
the median and range are printed with the machine's load.

    .venv/bin/python benchmarks/review.py [--repeats 30] [--games deep-vents,deep-dive]

Target: well under the page's own replay (a few tens of milliseconds for the longest game).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench_support import load

from engines.analysis import Budget, analyse_log
from engines.core.simulate import simulate_game
from engines.registry import get_game
from engines.review import review

TINY = Budget(target_se=0.2, min_playouts=4, max_playouts=8, batch=4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--games", default="deep-vents,deep-sea-adventure,deep-dive")
    args = parser.parse_args()
    print(f"load before: {load()}")
    for game_id in args.games.split(","):
        game = get_game(game_id)
        strategies = [name for name in game.strategies if name not in ("montecarlo", "lookahead")]
        seats = strategies[:4] if len(strategies) >= 4 else (strategies * 4)[:4]
        log = simulate_game(game, game.ruleset({}), seats, random.Random(f"review:{game_id}"))
        decisions = [d.to_json() for d in analyse_log(log, budget=TINY)]
        times = []
        for _ in range(args.repeats):
            started = time.perf_counter()
            reviewed = review(log, decisions)
            times.append((time.perf_counter() - started) * 1000)
        print(
            f"{game_id}: {len(log['events'])} events, {len(decisions)} decisions, "
            f"{len(reviewed.swings)} swings: median {statistics.median(times):.1f} ms "
            f"(range {min(times):.1f}-{max(times):.1f} ms over {args.repeats})"
        )
    print(f"load after: {load()}")


if __name__ == "__main__":
    main()
