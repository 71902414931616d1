"""`python -m engines analyse LOG`: what each decision of a log cost, offline."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engines.analysis.evaluator import DEFAULT_BUDGET, Budget, analyse_log, engine_version
from engines.core.game import Game, Ruleset
from engines.core.log import loads
from engines.core.replay import finish, start


def verified_with_snapshots(log: dict[str, Any]) -> tuple[Game, Ruleset, list[dict[str, Any]]]:
    """Verify a log (only a log that replays is worth analysing; the error names the first bad
    event) and keep the position each event was played from, so a decision reads in the
    engine's words: one starting state serves both."""
    game, ruleset, state = start(log)
    snapshots = [state.snapshot()]
    finish(log, game, ruleset, state, on_event=lambda _, after: snapshots.append(after.snapshot()))
    return game, ruleset, snapshots


def cmd_analyse(args: argparse.Namespace) -> int:
    with open(args.log, "rb") as stream:
        log = loads(stream.read())
    game, ruleset, snapshots = verified_with_snapshots(log)
    budget = Budget(
        target_se=args.target_se, min_playouts=args.min_playouts, max_playouts=args.max_playouts
    )

    def report(decision: Any) -> None:
        if args.json:
            print(json.dumps(decision.to_json()))
            return
        best, snapshot = decision.best, snapshots[decision.index]

        def describe(action: dict[str, Any]) -> str:
            return game.describe(action, snapshot, ruleset)

        mark = "" if decision.cost < 0.05 else "  <- mistake"
        # Seats read from 1, as every text of the site does; --json keeps the 0-based field.
        print(
            f"event {decision.index} ({log['players'][decision.seat]['name']}, "
            f"seat {decision.seat + 1}, {decision.phase}): "
            f"played {describe(decision.played)} {decision.played_estimate.win:.2f}, "
            f"best {describe(best.action)} {best.win:.2f}, "
            f"cost {decision.cost:.3f} +- {decision.cost_se:.3f}{mark}"
        )

    decisions = analyse_log(log, budget=budget, seed=args.seed, on_decision=report)
    if not args.json:
        total = sum(d.cost for d in decisions)
        print(
            f"{len(decisions)} decisions, engine {engine_version(log['game'])}, "
            f"total cost {total:.2f}",
            file=sys.stderr,
        )
    return 0


def add_parser(sub: Any) -> None:
    parser = sub.add_parser(
        "analyse", help="estimate each decision's win probability and cost by playouts"
    )
    parser.add_argument("log", help="a .json log")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--target-se", type=float, default=DEFAULT_BUDGET.target_se)
    parser.add_argument("--min-playouts", type=int, default=DEFAULT_BUDGET.min_playouts)
    parser.add_argument("--max-playouts", type=int, default=DEFAULT_BUDGET.max_playouts)
    parser.add_argument("--json", action="store_true", help="one JSON object per decision")
    parser.set_defaults(run=cmd_analyse)
