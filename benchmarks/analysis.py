"""Game analysis speed: a 4-player Deep Sea Adventure and Deep Vents game at the default
budget, on two workers.

The decision points are split into the chunks the Celery job makes (interleaved, 4 decisions
a chunk) and handed to a pool of two processes, as two Celery workers take one chunk at a
time; the time is the wall clock from the first chunk to the last, and beside it the CPU
seconds the chunks took over the number of workers (the wall time on idle cores: on a shared
machine the wall clock mostly measures the others' load). Printed per game: the times, the
decisions and playouts, and the standard error reached (the largest over every
evaluated move, and how many moves reached the target).

    .venv/bin/python benchmarks/analysis.py [--workers 2] [--games deep-sea-adventure,deep-vents]

Targets (issue 24): Deep Sea Adventure in at most 15 s, Deep Vents in at most 60 s on two
workers, the standard error of each evaluated move at most 0.03. The machine's load is printed
with the figures (the times scale with the CPU the workers get).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

# This checkout's engines, not whichever one the venv's editable install points at.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.analysis import DEFAULT_BUDGET, analyse_log, decision_points
from engines.core.simulate import simulate_game
from engines.registry import get_game

CHUNK_DECISIONS = 4  # the ANALYSIS_CHUNK_DECISIONS default
TABLES = {
    "deep-sea-adventure": ["grab-2-then-turn", "air-aware", "grab-3-then-turn", "random"],
    "deep-vents": ["turtle", "grower", "attacker", "random"],
}


def benchmark_log(game_id: str) -> dict:
    game = get_game(game_id)
    return simulate_game(game, game.ruleset({}), TABLES[game_id], random.Random(f"bench:{game_id}"))


def run_chunk(job: tuple[dict, list[int]]) -> tuple[list[dict], float]:
    """One chunk's decisions and the CPU seconds they took."""
    log, indices = job
    started = time.process_time()
    decisions = analyse_log(log, budget=DEFAULT_BUDGET, seed="0", indices=set(indices))
    return [d.to_json() for d in decisions], time.process_time() - started


def measure(game_id: str, workers: int) -> None:
    log = benchmark_log(game_id)
    indices = [point.index for point in decision_points(log)]
    count = max(1, -(-len(indices) // CHUNK_DECISIONS))
    chunks = [indices[start::count] for start in range(count)]
    started = time.perf_counter()
    with Pool(workers) as pool:
        parts = list(pool.imap_unordered(run_chunk, [(log, c) for c in chunks]))
    elapsed = time.perf_counter() - started
    results = [d for part, _ in parts for d in part]
    cpu = sum(seconds for _, seconds in parts)
    estimates = [e for d in results for e in d["alternatives"]]
    ses = [e["se"] for e in estimates]
    reached = sum(se <= DEFAULT_BUDGET.target_se for se in ses)
    playouts = sum(e["playouts"] for e in estimates)
    print(
        f"{game_id:20} {elapsed:7.1f} s wall ({cpu:.0f} CPU s: {cpu / workers:.0f} s on "
        f"{workers} idle cores)  {len(results)} decisions, {len(estimates)} moves, "
        f"{playouts} playouts  max SE {max(ses):.4f}, SE <= {DEFAULT_BUDGET.target_se}: "
        f"{reached}/{len(ses)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", default="deep-sea-adventure,deep-vents")
    args = parser.parse_args()
    print(
        f"budget {DEFAULT_BUDGET.to_json()}, {args.workers} workers, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    for game_id in args.games.split(","):
        measure(game_id, args.workers)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
