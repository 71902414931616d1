"""`python -m engines`: simulate bot games, verify and analyse logs offline."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from engines.analysis.cli import add_parser as add_analyse_parser
from engines.core.errors import LogError, MalformedLogError
from engines.core.log import dumps, iter_jsonl, loads
from engines.core.replay import verify
from engines.core.simulate import simulate
from engines.registry import GAMES, get_game


class Progress:
    """A one-line progress bar on stderr, shown only on a terminal."""

    def __init__(self, total: int, stream: IO[str] = sys.stderr) -> None:
        self.total, self.done, self.stream = total, 0, stream
        self.enabled = stream.isatty()

    def step(self) -> None:
        self.done += 1
        if self.enabled and (self.done == self.total or self.done % max(1, self.total // 100) == 0):
            filled = 30 * self.done // self.total
            bar = "#" * filled + "." * (30 - filled)
            self.stream.write(f"\r[{bar}] {self.done}/{self.total}")
            if self.done == self.total:
                self.stream.write("\n")
            self.stream.flush()


def cmd_simulate(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    ruleset = game.ruleset(
        {"name": args.ruleset or game.default_ruleset, "options": json.loads(args.options)}
    )
    if not game.min_players <= args.players <= game.max_players:
        raise LogError(f"{game.id} takes {game.min_players}-{game.max_players} players")
    strategies = args.strategies.split(",") if args.strategies else None
    logs = simulate(game, ruleset, args.players, args.games, args.seed, strategies)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            write_logs(out, logs, Progress(args.games))
    else:
        write_logs(sys.stdout, logs, Progress(args.games))
    return 0


def write_logs(out: IO[str], logs: Iterator[dict[str, Any]], progress: Progress) -> None:
    for log in logs:
        out.write(dumps(log) + "\n")
        progress.step()


def read_logs(path: str) -> Iterator[tuple[str, Any]]:
    """Yield (label, parsed log or LogError) for a .json file or each line of a .jsonl file."""
    if path.endswith(".jsonl"):
        lines = 0
        with open(path, "rb") as stream:
            for number, line in iter_jsonl(stream):
                lines += 1
                label = f"{path}:{number}"
                try:
                    yield label, loads(line)
                except LogError as exc:
                    yield label, exc
        if not lines:  # nothing to verify is an error, never a silent success
            yield path, MalformedLogError("the file holds no log (no non-blank line)")
    else:
        data = Path(path).read_bytes()
        try:
            yield path, loads(data)
        except LogError as exc:
            yield path, exc


def cmd_verify(args: argparse.Namespace) -> int:
    failures = 0
    for path in args.files:
        for label, log in read_logs(path):
            try:
                if isinstance(log, LogError):
                    raise log
                outcome = verify(log)
                record = {
                    "log": label,
                    "status": "ok",
                    "scores": list(outcome.scores),
                    "winners": list(outcome.winners),
                }
                text = f"{label}: ok scores {list(outcome.scores)} winners {list(outcome.winners)}"
            except LogError as exc:
                failures += 1
                record = {"log": label, "status": "invalid", "error": exc.to_dict()}
                text = f"{label}: invalid {exc}"
            print(json.dumps(record) if args.json else text)
    return 1 if failures else 0


def cmd_schema(args: argparse.Namespace) -> int:
    print(json.dumps(get_game(args.game).schema(), indent=2))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engines", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play bot games and write their logs as JSON Lines")
    sim.add_argument("game", choices=list(GAMES))
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--seed", default="1")
    sim.add_argument(
        "--strategies", help="comma-separated, one per seat (default: drawn at random)"
    )
    sim.add_argument("--ruleset", help="ruleset name (default: the game's default)")
    sim.add_argument("--options", default="{}", help="ruleset options as a JSON object")
    sim.add_argument("--out", help="output .jsonl file (default: stdout)")
    sim.set_defaults(run=cmd_simulate)

    ver = sub.add_parser("verify", help="replay logs (.json or .jsonl) and check their results")
    ver.add_argument("files", nargs="+")
    ver.add_argument("--json", action="store_true", help="one JSON object per log")
    ver.set_defaults(run=cmd_verify)

    sch = sub.add_parser("schema", help="print the JSON Schema of a game's logs")
    sch.add_argument("game", choices=list(GAMES))
    sch.set_defaults(run=cmd_schema)

    add_analyse_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except LogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (OSError, json.JSONDecodeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
