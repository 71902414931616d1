"""The montecarlo bot against each game's strongest built-in bots, at mixed four-seat tables.

Every table seats the montecarlo bot, the game's strongest heuristic and two others; game i
rotates the seats by i, so every bot sits in every position equally often. Printed per game:
each bot's share of the wins (1, or 1/k in a k-way tie) with its standard error, over the
games played, and the CPU seconds they took. A fair share is 0.25.

    nice .venv/bin/python benchmarks/bot_match.py [--games deep-sea-adventure,...]
        [--sample 400] [--workers 2] [--first 0] [--results FILE]

Game i is the same game in every run (its seed is the index), so a run stopped for time can be
continued with `--first` and both runs' `--results` file (a JSON line a game, appended) summed:
the summary covers every game in the file for the games asked.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.core.simulate import game_rng, simulate_game
from engines.registry import get_game

# The strongest heuristic second (measured on mixed tables: see the games' playout notes).
TABLES = {
    "deep-sea-adventure": ["montecarlo", "grab-2-then-turn", "air-aware", "grab-3-then-turn"],
    "deep-sea-adventure-boost": ["montecarlo", "always-boost", "grab-2-then-turn", "air-aware"],
    "deep-dive": ["montecarlo", "risk-aware", "surface-after-3", "surface-after-2"],
    "deep-vents": ["montecarlo", "turtle", "grower", "attacker"],
}


def play(job: tuple[str, int]) -> tuple[dict[str, float], float, int]:
    """Game `index`: each bot's share of the win, the CPU seconds it took, and the index."""
    game_id, index = job
    started = time.process_time()
    game = get_game(game_id)
    table = TABLES[game_id]
    shift = index % len(table)
    seats = table[shift:] + table[:shift]
    log = simulate_game(game, game.ruleset({}), seats, game_rng(f"match:{game_id}", index))
    winners = log["result"]["winners"]
    shares = {name: 0.0 for name in table}
    for seat in winners:
        shares[seats[seat]] += 1 / len(winners)
    return shares, time.process_time() - started, index


def summary(game_id: str, parts: list[tuple[dict[str, float], float]]) -> str:
    """Each bot's share of the wins with its standard error, and the CPU seconds, so far."""
    n = len(parts)
    cells = []
    for name in TABLES[game_id]:
        values = [shares[name] for shares, _ in parts]
        mean = sum(values) / n
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n) if n > 1 else 0.0
        cells.append(f"{name} {mean:.3f} +- {spread:.3f}")
    cpu = sum(seconds for _, seconds in parts)
    loads = " ".join(f"{v:.2f}" for v in os.getloadavg())
    return f"{game_id:25} {n} games  {'  '.join(cells)}  ({cpu:.0f} CPU s; load {loads})"


def earlier_games(path: Path | None, game_id: str) -> dict[int, tuple[dict[str, float], float]]:
    """Games of `game_id` already in the results file, by index."""
    if path is None or not path.exists():
        return {}
    games = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row["game"] == game_id:
            games[row["index"]] = (row["shares"], row["cpu"])
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(TABLES))
    parser.add_argument("--sample", type=int, default=400, help="games per game")
    parser.add_argument("--first", type=int, default=0, help="the first game's index")
    parser.add_argument(
        "--results", type=Path, help="a JSON line a game, appended; summed on start"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--every", type=int, default=50, help="print the running shares so often")
    args = parser.parse_args()
    loads = " ".join(f"{v:.2f}" for v in os.getloadavg())
    print(
        f"{args.sample} games a game from game {args.first}, {args.workers} workers; load {loads}",
        flush=True,
    )
    with Pool(args.workers) as pool:
        for game_id in args.games.split(","):
            done = earlier_games(args.results, game_id)
            indexes = range(args.first, args.first + args.sample)
            jobs = [(game_id, i) for i in indexes if i not in done]
            parts = list(done.values())
            if parts:
                print(f"{len(parts)} games of {game_id} from {args.results}", flush=True)
            for shares, cpu, index in pool.imap_unordered(play, jobs, chunksize=1):
                parts.append((shares, cpu))
                if args.results is not None:
                    row = {"game": game_id, "index": index, "shares": shares, "cpu": cpu}
                    with args.results.open("a") as results:
                        results.write(json.dumps(row) + "\n")
                # A running line every --every games, so a run stopped for time still reports.
                if len(parts) % args.every == 0 or len(parts) == len(done) + len(jobs):
                    print(summary(game_id, parts), flush=True)
    print(f"load at the end {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()
