"""Replay speed: verifying Deep Vents logs against python-chess replaying PGN games.

Verifies N simulated 4-player Deep Vents games read from JSON Lines (parse, schema,
every rule, result check: exactly what `python -m engines verify` does) and, in the same
run, replays N random 80-ply chess games read from PGN with python-chess (parse every
SAN move, check it is legal, play it). Every other game of engines.registry.GAMES that
imports is verified too and printed beside. Figures are medians over several repeats.

    .venv/bin/python benchmarks/replay.py [--games 2000] [--repeats 5]

The simulated logs are cached in the temp directory (simulating is not what is measured).
Target (issue 3): Deep Vents verifies at least as many games per second as python-chess.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn

from engines.core.errors import LogError
from engines.core.log import dumps, iter_jsonl, loads
from engines.core.replay import verify
from engines.core.simulate import simulate
from engines.registry import GAMES, get_game

CHESS_PLIES = 80


def simulated_jsonl(game_id: str, players: int, games: int, seed: str) -> Path:
    """A JSONL file of simulated logs, written once and reused."""
    path = Path(tempfile.gettempdir()) / f"deepsea-bench-{game_id}-{players}p-{games}-{seed}.jsonl"
    if not path.exists():
        game = get_game(game_id)
        partial = path.with_suffix(".partial")
        with partial.open("w", encoding="utf-8") as out:
            for log in simulate(game, game.ruleset(None), players, games, seed):
                out.write(dumps(log) + "\n")
        partial.rename(path)
    return path


def random_pgn(games: int, seed: int) -> str:
    """`games` chess games of exactly 80 random legal plies, as one PGN text."""
    rng = random.Random(seed)
    texts = []
    while len(texts) < games:
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(CHESS_PLIES):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
        if board.ply() == CHESS_PLIES:  # games ended early are dealt again
            texts.append(str(game))
    return "\n\n".join(texts) + "\n"


def verify_jsonl(path: Path) -> int:
    verified = 0
    with path.open("rb") as stream:
        for _, line in iter_jsonl(stream):
            verify(loads(line))
            verified += 1
    return verified


def replay_pgn(text: str) -> int:
    replayed = 0
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            raise ValueError(f"PGN game {replayed}: {game.errors[0]}")
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
        replayed += 1
    return replayed


def rate(run: Callable[[], int]) -> float:
    """Games per second of one run."""
    start = time.perf_counter()
    count = run()
    return count / (time.perf_counter() - start)


def other_games() -> list[tuple[str, int]]:
    """(game id, players) for every registered game besides Deep Vents that imports."""
    found = []
    for game_id in GAMES:
        if game_id == "deep-vents":
            continue
        try:
            game = get_game(game_id)
        except (ImportError, AttributeError, LogError) as exc:
            print(f"{game_id}: skipped ({exc})")
            continue
        found.append((game_id, max(game.min_players, min(4, game.max_players))))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args()

    print(f"preparing {args.games} games each (simulated logs are cached)...", flush=True)
    vents = simulated_jsonl("deep-vents", 4, args.games, args.seed)
    others = [(g, p, simulated_jsonl(g, p, args.games, args.seed)) for g, p in other_games()]
    pgn = random_pgn(args.games, seed=1)
    events = [len(loads(line)["events"]) for _, line in iter_jsonl(vents.open("rb"))]

    # Interleave the measurements so that load from other work on the machine hits all alike.
    runs: dict[str, Callable[[], int]] = {
        "deep-vents": lambda: verify_jsonl(vents),
        "python-chess": lambda: replay_pgn(pgn),
        **{g: (lambda path=path: verify_jsonl(path)) for g, _, path in others},
    }
    samples: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeats):
        for name, run in runs.items():
            samples[name].append(rate(run))
    rates = {name: statistics.median(values) for name, values in samples.items()}

    chess_rate = rates["python-chess"]
    print(
        f"deep-vents, 4 players ({statistics.median(events):.0f} events/game, median): "
        f"{rates['deep-vents']:.0f} games/s verified from JSONL"
    )
    print(f"python-chess, {CHESS_PLIES} plies: {chess_rate:.0f} games/s replayed from PGN")
    print(f"ratio deep-vents / python-chess: {rates['deep-vents'] / chess_rate:.2f} (target >= 1)")
    for game_id, players, _ in others:
        print(
            f"{game_id}, {players} players: {rates[game_id]:.0f} games/s verified "
            f"(ratio to python-chess {rates[game_id] / chess_rate:.2f})"
        )
    print(f"medians of {args.repeats} repeats of {args.games} games each")


if __name__ == "__main__":
    main()
