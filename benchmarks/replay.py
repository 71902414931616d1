"""Replay speed: Deep Vents verification on the worker's path against python-chess.

Times, paired ABAB in one process (so that other load on the machine hits both alike):

- Deep Vents: N simulated 4-player logs, each read from its stored text and replayed with
  the facts statistics need, by `games.services.verification.replay_raw`, the very
  function the Celery tasks call (parse, schema, every rule, result check, facts; not
  the database);
- python-chess: N random 80-ply games read from PGN by `chess.pgn.read_game`, which
  parses every SAN move, checks it is legal and plays it: each move pushed once (the
  ratio compares games: a 4-player Deep Vents game has about 280 events to chess's 80
  plies, so the time an event and a ply are printed beside);
- Deep Dive: the same worker path against its replay alone (rules, facts and result check
  from logs already read and checked), the overhead of reading and checking;
- every other registered game on the worker path, printed beside;
- where a Deep Vents verification's time goes: the same path stopped after reading (JSON),
  after the schema check and the initial state, and after every rule and the result check
  without facts, each stage the difference of two paired figures; and what the ratio to
  python-chess would be if the facts, then the reading and checking too, cost nothing.

    .venv/bin/python benchmarks/replay.py [--games 2000] [--repeats 5] [--clock wall]

Prints the median and range (min-max) of each figure over the repeats, the median of the
paired ratios, and the load average. Targets (issue 14): Deep Vents >= 3x python-chess;
Deep Dive verify <= 1.5x its replay alone. The simulated logs are cached in the temp
directory (simulating is not what is measured). `--clock cpu` counts this process's CPU
time instead of wall time: steadier on a shared machine, blind to waiting.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import chess
import chess.pgn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deepsea.settings")

import django  # noqa: E402

django.setup()

from engines.core.errors import LogError  # noqa: E402
from engines.core.log import dumps, loads  # noqa: E402
from engines.core.replay import (  # noqa: E402
    apply_events,
    check_result,
    replay,
    start,
    unfinished,
)
from engines.core.simulate import simulate  # noqa: E402
from engines.registry import GAMES, get_game  # noqa: E402
from games.services.verification import replay_raw  # noqa: E402

CHESS_PLIES = 80
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def simulated_lines(game_id: str, players: int, games: int, seed: str) -> list[str]:
    """The texts of simulated logs (as GameLog.raw stores them), written once and reused."""
    path = Path(tempfile.gettempdir()) / f"deepsea-bench-{game_id}-{players}p-{games}-{seed}.jsonl"
    if not path.exists():
        game = get_game(game_id)
        partial = path.with_suffix(".partial")
        with partial.open("w", encoding="utf-8") as out:
            for log in simulate(game, game.ruleset(None), players, games, seed):
                out.write(dumps(log) + "\n")
        partial.rename(path)
    return path.read_text(encoding="utf-8").splitlines()


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


def verify_lines(lines: list[str]) -> int:
    """The worker's path for every log (a group of a batch, less the database)."""
    for raw in lines:
        replay_raw(raw)
    return len(lines)


def read_lines(lines: list[str]) -> int:
    """The worker path's first stage: each log read from its text."""
    for raw in lines:
        loads(raw)
    return len(lines)


def read_and_check(lines: list[str]) -> int:
    """Read, envelope and schema checked, initial state set up: no event applied. As the
    worker's replay does it: a game whose state checks each event as it applies it
    (Game.checks_event_shapes) leaves the events out of the schema's check here."""
    for raw in lines:
        log = loads(raw)
        start(log, check_events=not get_game(log["game"]).checks_event_shapes)
    return len(lines)


def verify_without_facts(lines: list[str]) -> int:
    """The worker path less the facts: read, check, every rule, the result check."""
    for raw in lines:
        replay(loads(raw))
    return len(lines)


def replay_alone(logs: list[dict], facts: bool = True) -> int:
    """Rules, facts (unless told not) and the result check only, from logs already read
    and checked."""
    for log in logs:
        game = get_game(log["game"])
        state = game.new_state(game.ruleset(log.get("ruleset")), len(log["players"]), log["setup"])
        if facts:
            state.facts = []
        apply_events(state, log["events"])
        if not state.is_terminal():
            raise unfinished(state, len(log["events"]))
        check_result(log.get("result"), state.outcome())
    return len(logs)


def read_pgn(text: str) -> int:
    """python-chess reading every game: read_game parses, checks and plays each move."""
    read = 0
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            raise ValueError(f"PGN game {read}: {game.errors[0]}")
        read += 1
    return read


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


def spread(values: list[float], unit: str = "games/s") -> str:
    return (
        f"median {statistics.median(values):.0f} {unit} (range {min(values):.0f}-{max(values):.0f})"
    )


def ratios(top: list[float], bottom: list[float]) -> str:
    paired = [a / b for a, b in zip(top, bottom, strict=True)]
    return f"median {statistics.median(paired):.2f} (range {min(paired):.2f}-{max(paired):.2f})"


def print_stages(samples: dict[str, list[float]], chess_rates: list[float]) -> None:
    """Where a Deep Vents verification's time goes, and the ratios it bounds."""

    def micros(name: str) -> float:
        return 1e6 / statistics.median(samples[name])

    stages = [
        ("read (JSON)", micros("vents read")),
        ("schema check and initial state", micros("vents read, checked, set up")),
        ("every rule and the result check", micros("vents without facts")),
        ("facts", micros("deep-vents")),
    ]
    parts, before = [], 0.0
    for name, upto in stages:
        parts.append(f"{name} {upto - before:.0f}")
        before = upto
    print(f"  per game, µs (differences of medians): {', '.join(parts)}")
    print(
        "  ratio to python-chess without the facts (paired): "
        f"{ratios(samples['vents without facts'], chess_rates)}; rules alone, from logs "
        f"read and checked, no facts: {ratios(samples['vents rules alone'], chess_rates)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="logs per game (default 2000)")
    parser.add_argument("--repeats", type=int, default=5, help="paired rounds (default 5)")
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    args = parser.parse_args()
    clock = CLOCKS[args.clock]

    print(f"preparing {args.games} games each (simulated logs are cached)...", flush=True)
    vents = simulated_lines("deep-vents", 4, args.games, args.seed)
    others = {g: simulated_lines(g, p, args.games, args.seed) for g, p in other_games()}
    pgn = random_pgn(args.games, seed=1)
    events = statistics.median(len(loads(line)["events"]) for line in vents)
    dive_logs = [loads(line) for line in others.get("deep-dive", [])]
    vents_logs = [loads(line) for line in vents]
    for log in dive_logs:
        start(log)  # read and checked once here: replay_alone times the rules only

    def rate(run: Callable[[], int]) -> float:
        began = clock()
        count = run()
        return count / (clock() - began)

    # One round runs everything once, A then B; rounds repeat: ABAB.
    runs: dict[str, Callable[[], int]] = {
        "deep-vents": lambda: verify_lines(vents),
        "python-chess": lambda: read_pgn(pgn),
        "vents read": lambda: read_lines(vents),
        "vents read, checked, set up": lambda: read_and_check(vents),
        "vents without facts": lambda: verify_without_facts(vents),
        "vents rules alone": lambda: replay_alone(vents_logs, facts=False),
        **{g: (lambda lines=lines: verify_lines(lines)) for g, lines in others.items()},
    }
    if dive_logs:
        runs["deep-dive replay alone"] = lambda: replay_alone(dive_logs)
    for run in runs.values():
        run()  # warm up: imports, compiled schemas, caches
    samples: dict[str, list[float]] = {name: [] for name in runs}
    load_before = os.getloadavg()
    for _ in range(args.repeats):
        for name, run in runs.items():
            samples[name].append(rate(run))
    load_after = os.getloadavg()

    chess_rates = samples["python-chess"]
    vents_rate = statistics.median(samples["deep-vents"])
    print(f"deep-vents, 4 players ({events:.0f} events/game), worker path with facts:")
    print(f"  {spread(samples['deep-vents'])}, {1e6 / (vents_rate * events):.2f} µs an event")
    print(
        f"python-chess read_game, {CHESS_PLIES} plies: {spread(chess_rates)}, "
        f"{1e6 / (statistics.median(chess_rates) * CHESS_PLIES):.2f} µs a ply"
    )
    print(
        f"ratio deep-vents / python-chess (paired): {ratios(samples['deep-vents'], chess_rates)}"
        " (target >= 3)"
    )
    print_stages(samples, chess_rates)
    for game_id in others:
        print(
            f"{game_id}, worker path: {spread(samples[game_id])}; "
            f"ratio to python-chess {ratios(samples[game_id], chess_rates)}"
        )
    if dive_logs:
        alone = samples["deep-dive replay alone"]
        print(f"deep-dive replay alone (rules, facts, result): {spread(alone)}")
        print(
            "deep-dive verify time / replay-alone time (paired): "
            f"{ratios(alone, samples['deep-dive'])} (target <= 1.5)"
        )
    print(
        f"{args.repeats} paired rounds of {args.games} games each, {args.clock} clock; "
        f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
        f"({os.cpu_count()} CPUs)"
    )


if __name__ == "__main__":
    main()
