"""Replay equality: does this tree's engine answer every log as another tree's does?

A faster engine must keep every verdict: the facts and outcome a verification records, the
seat summary, the detail facts and final table a game's page reads, the table after every
event (snapshot, whose decision, its words, the legal events: what viewers and bots read),
and every error exactly (its message, event index, seat, field and ruling, and the words
`describe_error` tells a player). This replays one corpus of Deep Vents logs through two
trees, each in its own process (`PYTHONPATH=<tree>`), and compares the answers log by log,
aspect by aspect:

    .venv/bin/python benchmarks/replay_equality.py --against /work/main [--games 120]

Each side runs its tree's engines as built (compiled where current, engines.compiled), or
the ones `--against-engines` / `--engines` name: `pure` (DEEPSEA_PURE_ENGINES=1) or
`compiled` (the run fails unless the compiled build is what that side imports). The pure
engines are the reference for the compiled build of the same tree:

    .venv/bin/python benchmarks/replay_equality.py --against-engines pure --engines compiled

The corpus: bot games of 2-4 players, both rulesets and both row sizes, written as the
engine writes logs (compact: the fast reader) and some indented (the exact reader); then
corrupted copies of each (tests/engines/log_corruption.py: an event dropped, doubled,
retyped, moved, pointed elsewhere, given a field it does not take, or one after the end)
and copies the schema refuses (a field out of range or of the wrong type, a key no event
takes, an event with no type). It is generated once by the reference tree (`--against`)
and cached in the temp directory, so both trees read the same bytes. Bot games simulated
by both trees from the same seeds are compared too (the bots, clone and forced moves).
Exits 1, naming the first logs that differ and how, when any answer differs.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAME_ID = "deep-vents"
# Changes the schema refuses (field, value): out of range, wrong type, or no such field;
# and two cells the rules may refuse.
SCHEMA_BREAKS = [
    ("position", 7),
    ("position", 0),
    ("position", "1"),
    ("amount", -1),
    ("amount", 101),
    ("amount", 2.5),
    ("use", 1),
    ("seat", 4),
    ("seat", -1),
    ("seat", "0"),
    ("seat", None),
    ("colour", "red"),
    ("hex", [0, 0, 0]),
    ("from", "x"),
    ("source", [1.5, 0]),
    ("hex", [5, 5]),  # within the schema, but touching none of the seat's hexes (DV-4)
    ("hex", [-1, 0]),
]


def corpus_texts(games: int, seed: int) -> list[str]:
    """The corpus's log texts, intact first (see the module docstring)."""
    sys.path.insert(0, str(ROOT / "tests" / "engines"))
    from log_corruption import corrupted

    from engines.core.log import dumps
    from engines.core.simulate import simulate_game, table_strategies
    from engines.registry import get_game

    game = get_game(GAME_ID)
    rng = random.Random(seed)
    bots = ["random", "grower", "attacker", "turtle"]
    logs = []
    for index in range(games):
        players = 4 if index % 2 == 0 else 2 + index % 3
        name = "starting-bid" if index % 3 else "standard"
        ruleset = game.ruleset({"name": name, "options": {"row_size": 6 if index % 5 else 5}})
        table = table_strategies(game, players, [rng.choice(bots) for _ in range(players)], rng)
        logs.append(simulate_game(game, ruleset, table, rng))
    texts = [dumps(log) for log in logs]
    texts += [json.dumps(log, indent=1) for log in logs[:: max(1, games // 10)]]
    for log in logs:
        texts += [dumps(corrupted(log, rng)) for _ in range(3)]
        broken = copy.deepcopy(log)
        event = rng.choice(broken["events"])
        field, value = rng.choice(SCHEMA_BREAKS)
        event[field] = value
        texts.append(dumps(broken))
    untyped = copy.deepcopy(logs[0])
    del rng.choice(untyped["events"])["type"]
    texts.append(dumps(untyped))
    no_result = copy.deepcopy(logs[1])
    del no_result["result"]
    texts.append(dumps(no_result))
    wrong_score = copy.deepcopy(logs[2])
    wrong_score["result"]["scores"][0] += 1
    texts.append(dumps(wrong_score))
    return texts + reader_cases(logs[:20], rng)


def reader_cases(logs: list[dict[str, Any]], rng: random.Random) -> list[str]:
    """Texts that test how a log is read (engines.core.log.loads, which proves orjson's
    answer the exact reader's or asks the exact reader): a duplicate key, colons and quotes
    inside strings, spaces, escapes, long and odd numbers, meta, nesting, not JSON."""
    from engines.core.log import dumps

    texts = []
    for log in logs:
        text = dumps(log)
        at = text.index('"seat":', rng.randrange(len(text) // 2, len(text) - 20))
        texts.append(text[:at] + '"seat":0,' + text[at:])  # a key twice
        texts.append(text[:at] + '"seat" :' + text[at + 7 :])  # a space before a colon
        texts.append(text.replace('"name":"', '"name":"a:b ', 1))
        texts.append(text.replace('"name":"', '"name":"q\\"', 1))
        texts.append(text[:-1] + ',"meta":{"date":"2026-12-07","table":3}}')
        texts.append(text[:-1] + ',"meta":{"x":{"y":1,"y":2}}}')
        texts.append(text[:-1] + ',"meta":{"deep":' + "[" * 300 + "]" * 300 + "}}")
        texts.append(text[:-1] + ',"meta":{"n":123456789012345678901234}}')
        texts.append(text[:-1] + ',"meta":{"n":1e400,"m":-0.0}}')
        texts.append(text.replace('"amount":', '"amount":NaN,"x":', 1))
        texts.append(text[: len(text) // 2])
    return texts


def digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=repr, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def failure(error: Exception) -> dict[str, Any]:
    from engines.core.errors import LogError

    if isinstance(error, LogError):
        return error.to_dict()
    return {"exception": type(error).__name__, "message": str(error)}


def answers(text: str) -> dict[str, str]:
    """Every aspect of one log's replay, each as a digest."""
    from engines.core.errors import LogError
    from engines.core.log import loads
    from engines.core.replay import describe_error, replay

    found: dict[str, Any] = {}
    try:
        log = loads(text)
    except LogError as error:
        return {"read": digest(failure(error))}
    try:  # the worker's path (games.services.verification.replay_raw)
        done = replay(log, collect_facts=True, detail_facts=False)
        outcome = done.outcome
        found["verdict"] = [outcome.scores, outcome.winners, outcome.ranks, outcome.termination]
        found["facts"] = done.facts
        found["seat summary"] = sorted(done.game.seat_summary(done.state).items())
    except Exception as error:
        found["verdict"] = failure(error)
        if isinstance(error, LogError):
            found["told"] = describe_error(log, error.to_dict())
    try:  # a game's page: every fact and the final table
        done = replay(log, collect_facts=True, detail_facts=True)
        found["detail"] = [done.facts, done.state.snapshot()]
    except Exception as error:
        found["detail"] = failure(error)
    steps = hashlib.sha256()

    def step(index: int, state: Any) -> None:
        seen = [index, state.snapshot(), state.current_seat(), state.waiting_for()]
        seen.append(state.legal_actions())
        steps.update(digest(seen).encode())

    try:  # a viewer stepping through, and what a bot would be offered at every step
        replay(log, on_event=step)
        found["steps"] = steps.hexdigest()[:16]
    except Exception as error:
        found["steps"] = [steps.hexdigest()[:16], failure(error)]
    return {aspect: digest(value) for aspect, value in found.items()}


def differing(theirs: dict[str, str], ours: dict[str, str]) -> list[str]:
    """The aspects two answers to one log differ on."""
    return sorted(k for k in set(theirs) | set(ours) if theirs.get(k) != ours.get(k))


def simulated(games: int, seed: str) -> list[str]:
    """Bot games simulated from fixed seeds (bots, clone, forced moves), as digests."""
    from engines.core.simulate import simulate
    from engines.registry import get_game

    game = get_game(GAME_ID)
    found = []
    for players in (2, 3, 4):
        for log in simulate(game, game.ruleset(None), players, games, seed):
            found.append(digest(log))
    return found


ENGINES = ("as-built", "pure", "compiled")


def run_role(tree: Path, role: str, *args: str, engines: str = "as-built") -> Any:
    """This script's `role` run in a process that imports `tree`'s `engines`."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    env.pop("DEEPSEA_PURE_ENGINES", None)
    if engines == "pure":
        env["DEEPSEA_PURE_ENGINES"] = "1"
    command = [sys.executable, __file__, "--role", role, "--engines", engines, *args]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{role} in {tree} failed:\n{done.stderr}")
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, default=ROOT, help="the reference tree")
    parser.add_argument("--against-engines", choices=ENGINES, default="as-built")
    parser.add_argument("--engines", choices=ENGINES, default="as-built", help="this tree's")
    parser.add_argument("--games", type=int, default=120, help="bot games in the corpus")
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--role", choices=["corpus", "answers", "simulated"], default=None)
    parser.add_argument("--corpus", type=Path, default=None)
    args = parser.parse_args()
    if args.role is not None and args.engines == "compiled":
        from engines.compiled import SELECTION

        if not SELECTION.compiled:
            raise SystemExit(f"the compiled engines are not in use: {SELECTION.reason}")
    if args.role == "corpus":
        json.dump(corpus_texts(args.games, args.seed), sys.stdout)
        return
    if args.role == "answers":
        texts = json.loads(args.corpus.read_text(encoding="utf-8"))
        json.dump([answers(text) for text in texts], sys.stdout)
        return
    if args.role == "simulated":
        json.dump(simulated(max(1, args.games // 10), str(args.seed)), sys.stdout)
        return
    reference = args.against.resolve()
    sides = ((reference, args.against_engines), (ROOT, args.engines))
    name = f"deepsea-equality-3-{args.games}-{args.seed}.json"
    corpus = Path(tempfile.gettempdir()) / name
    if not corpus.exists():
        seeded = ["--games", str(args.games), "--seed", str(args.seed)]
        texts = run_role(reference, "corpus", *seeded, engines=args.against_engines)
        corpus.write_text(json.dumps(texts), encoding="utf-8")
    texts = json.loads(corpus.read_text(encoding="utf-8"))
    theirs, ours = (run_role(t, "answers", "--corpus", str(corpus), engines=e) for t, e in sides)
    differ = [
        (i, differing(a, b)) for i, (a, b) in enumerate(zip(theirs, ours, strict=True)) if a != b
    ]
    seeds = ["--games", str(args.games), "--seed", str(args.seed)]
    simulated_games = [run_role(t, "simulated", *seeds, engines=e) for t, e in sides]
    simulated_differ = simulated_games[0] != simulated_games[1]
    errors = sum(1 for a in theirs if "read" in a or "told" in a)
    print(
        f"engines {args.against_engines} (reference) against {args.engines}: "
        f"{len(texts)} logs ({args.games} bot games, {errors} refused), "
        f"{sum(len(a) for a in theirs)} answers compared: {len(differ)} logs differ; "
        f"simulated games {'differ' if simulated_differ else 'equal'}"
    )
    for index, aspects in differ[:10]:
        print(f"  log {index}: {', '.join(aspects)}")
    if differ or simulated_differ:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
