"""Is the analysis calibrated? Each decision's win probability held against the real outcome.

For every game and table kind, `--sample` games are simulated, then analysed as a log would
be: at each decision (every `--every`-th), the played action's win probability for the seat
that made it is estimated by the analysis' playouts (only the played action: it is the one
a forecast is about), and held against that seat's share of the win. Printed per game and
table: the sample, Brier score, skill against the 1/players prior, expected calibration
error over 10 bins and the sure calls (p < 0.02 or > 0.98) that were wrong, each with its
standard error (a jackknife over games; engines/analysis/calibration.py).

Tables (four seats, their order shuffled per game):
- competitive: the game's heuristic bots (below);
- human: the same bots, each playing a random legal action a fifth of the time.

Targets (issue 24), for every game and both tables: skill >= 0.3, ECE <= 0.05, sure calls
wrong under 1%. The machine has two shared cores: run it under `nice`, on a sample.

    nice .venv/bin/python benchmarks/calibration.py [--sample 20] [--every 2]
        [--games deep-sea-adventure,...] [--tables competitive,human] [--workers 2]
        [--target-se 0.05 --max-playouts 200] [--seats read|pool|true]

`--seats true` seats in the playouts the bots really at the table, which no analysis knows:
the skill it reaches bounds what a better reading of the seats could add. Each table's
figures are followed by its skill without the playouts' sampling noise (each forecast's
estimated variance taken out of its Brier score): with `--seats true` that is the skill of
the best forecast the deciding diver's information allows, as the bots neither see nor
choose by chip values, so the values redrawn within their levels are what the diver knows
of them (all but the chips it once held and dropped or lost, redrawn too).
`--hidden known` starts every playout from the log's own chip values instead (what nobody at
the table knows): what the face-down values cost the forecasts.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.analysis import Budget, decision_points, evaluate_position
from engines.analysis.calibration import Forecast, brier, prior_brier, skill, summary
from engines.analysis.evaluator import ActionEstimate
from engines.analysis.table_reading import TableReading
from engines.core.bots import mixed_strategy
from engines.core.game import Strategy
from engines.core.schema import FORMAT
from engines.core.simulate import play_out
from engines.registry import GAMES, get_game

TABLES = {
    "deep-vents": ["turtle", "grower", "attacker", "lookahead"],
    "deep-sea-adventure": ["grab-2-then-turn", "air-aware", "grab-3-then-turn", "air-aware"],
    "deep-sea-adventure-boost": [
        "grab-2-then-turn",
        "air-aware",
        "air-aware-boost",
        "always-boost",
    ],
    "deep-dive": ["surface-after-2", "surface-after-3", "risk-aware", "risk-aware"],
}
HUMAN_RANDOMNESS = 0.2


def table_log(game_id: str, kind: str, index: int) -> dict:
    """Game `index` of a table kind: a log of bots (human-like ones stray a fifth of the
    time), seat order shuffled."""
    game = get_game(game_id)
    rng = random.Random(f"calibration:{game_id}:{kind}:{index}")
    seats = list(TABLES[game_id])
    rng.shuffle(seats)
    randomness = HUMAN_RANDOMNESS if kind == "human" else 0.0
    bots = [mixed_strategy([game.strategies[name]], randomness)() for name in seats]
    ruleset = game.ruleset({})
    setup = game.new_setup(ruleset, len(seats), rng)
    state = game.new_state(ruleset, len(seats), setup)
    events = play_out(state, bots, rng)
    return {
        "format": FORMAT,
        "game": game_id,
        "ruleset": ruleset.to_json(),
        "players": [{"name": f"{name} {n}", "strategy": name} for n, name in enumerate(seats)],
        "setup": setup,
        "events": events,
        "result": state.outcome().to_result(),
    }


def playout_override(game_id: str, pool: str, randomness: float | None) -> type[Strategy] | None:
    """Another playout bot than the game's, to compare policies (None: the game's)."""
    if not pool and randomness is None:
        return None
    game = get_game(game_id)
    names = pool.split(",") if pool else game.playout_pool
    chosen = game.playout_randomness if randomness is None else randomness
    return mixed_strategy([game.strategies[name] for name in names], chosen)


def noise(estimate: ActionEstimate) -> float:
    """An unbiased estimate of the variance of the estimate's win (the sample variance of
    the playouts over their number): what its playouts' sampling adds to its Brier score."""
    n = estimate.playouts
    if n < 2 or estimate.exact:
        return 0.0
    mean = estimate.total / n
    return max(0.0, (estimate.total_sq - n * mean * mean) / (n - 1)) / n


def game_forecasts(
    job: tuple,
) -> tuple[list[tuple[Forecast, int, float]], float, list[list]]:
    """Forecasts at every `every`-th decision of one game, each with the third of the game
    it was made in (0-2) and its sampling variance (noise), the CPU seconds they took, and
    each forecast as a row for `--dump` (game, event index, third, probability, playouts,
    outcome, sampling variance)."""
    game_id, kind, index, every, budget, pool, randomness, seating, hidden = job
    playout = playout_override(game_id, pool, randomness)
    if hidden == "known":
        # A diagnostic, in this worker only: playouts start from the log's own chip values
        # (what no diver at the table knows), so the skill bounds what the face-down values
        # cost. A clone, as resample gives: the evaluator applies actions to what it returns.
        get_game(game_id).resample = lambda state, seat, rng: state.clone()
    started = time.process_time()
    log = table_log(game_id, kind, index)
    players = len(log["players"])
    outcome = [0.0] * players
    for seat in log["result"]["winners"]:
        outcome[seat] = 1 / len(log["result"]["winners"])
    reading = TableReading(get_game(game_id), players)
    forecasts = []
    raw = []
    for number, point in enumerate(decision_points(log)):
        if number % every == index % every:
            (estimate,) = evaluate_position(
                game_id,
                point.state,
                point.seat,
                [point.played],
                players,
                budget=budget,
                seed=f"{index}:{point.index}",
                playout=playout,
                seats=playout_seats(log, kind, seating, reading),
            )
            third = 3 * point.index // len(log["events"])
            forecasts.append(
                (
                    Forecast(index, players, estimate.win, outcome[point.seat]),
                    third,
                    noise(estimate),
                )
            )
            raw.append(
                [index, point.index, third, estimate.win, estimate.playouts, outcome[point.seat],
                 noise(estimate)]
            )  # fmt: skip
        reading.observe(point)
    return forecasts, time.process_time() - started, raw


def playout_seats(
    log: dict, kind: str, seating: str, reading: TableReading
) -> list[type[Strategy]] | None:
    """Each seat's playout bot: None for the one bot everywhere (`pool`), the table as read
    from the log so far (`read`, as analyses do), or the bots really seated (`true`: what
    no analysis knows, the bound a better reading could reach)."""
    if seating == "read":
        return reading.seats()
    if seating == "true":
        game = get_game(log["game"])
        randomness = HUMAN_RANDOMNESS if kind == "human" else 0.0
        return [
            mixed_strategy([game.strategies[player["strategy"]]], randomness)
            for player in log["players"]
        ]
    return None


def denoised_skill(staged: list[tuple[Forecast, int, float]]) -> float:
    """Skill with each forecast's sampling variance taken out of its Brier score: the skill
    of the same playouts without limit. The playouts' randomness is independent of how the
    real game went, so E[(estimate - outcome)^2] = E[(p - outcome)^2] + Var(estimate)."""
    forecasts = [forecast for forecast, _, _ in staged]
    return 1 - (brier(forecasts) - sum(v for _, _, v in staged) / len(staged)) / prior_brier(
        forecasts
    )


def denoised_line(staged: list[tuple[Forecast, int, float]]) -> str:
    games = sorted({forecast.game for forecast, _, _ in staged})
    value = denoised_skill(staged)
    values = [denoised_skill([s for s in staged if s[0].game != game]) for game in games]
    mean = sum(values) / len(values)
    se = (len(values) - 1) / len(values) * sum((v - mean) ** 2 for v in values)
    thirds = [[s for s in staged if s[1] == n] for n in range(3)]
    return (
        f"   without sampling noise: skill {value:.3f} +- {se**0.5:.3f} (by third "
        f"{' / '.join(f'{denoised_skill(third):.2f}' for third in thirds if third)}); "
        f"mean playouts' variance {sum(v for _, _, v in staged) / len(staged):.4f}, "
        f"prior Brier {prior_brier([s[0] for s in staged]):.4f}"
    )


def figures_line(
    game_id: str, kind: str, staged: list[tuple[Forecast, int, float]], cpu: float
) -> str:
    forecasts = [forecast for forecast, _, _ in staged]
    f = summary(forecasts)
    thirds = [[forecast for forecast, third, _ in staged if third == n] for n in range(3)]
    verdict = [
        "skill ok" if f["skill"] >= 0.3 else "SKILL < 0.3",
        "ECE ok" if f["ece"] <= 0.05 else "ECE > 0.05",
        "sure ok" if f["sure_wrong_rate"] < 0.01 else "SURE-WRONG >= 1%",
    ]
    return (
        f"{game_id:25} {kind:11} {f['games']:3} games {f['decisions']:5} decisions  "
        f"skill {f['skill']:.3f} +- {f['skill_se']:.3f}  ECE {f['ece']:.3f} +- {f['ece_se']:.3f}  "
        f"Brier {f['brier']:.3f} +- {f['brier_se']:.3f}  sure wrong {f['sure_wrong']}/{f['sure']} "
        f"({100 * f['sure_wrong_rate']:.1f}% +- {100 * f['sure_wrong_rate_se']:.1f})  "
        f"{cpu:.0f} CPU s  [{', '.join(verdict)}]  skill by third of the game "
        f"{' / '.join(f'{skill(third):.2f}' for third in thirds if third)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--tables", default="competitive,human")
    parser.add_argument("--sample", type=int, default=20, help="games per game and table")
    parser.add_argument("--every", type=int, default=2, help="analyse every n-th decision")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--target-se", type=float, default=0.05)
    parser.add_argument("--min-playouts", type=int, default=32)
    parser.add_argument("--max-playouts", type=int, default=200)
    parser.add_argument("--pool", default="", help="playout bots to mix instead of the game's")
    parser.add_argument("--randomness", type=float, help="instead of the game's")
    parser.add_argument(
        "--seats",
        choices=("read", "pool", "true"),
        default="read",
        help="each seat's playout bot read from the log so far (as analyses do), the one "
        "playout bot everywhere, or the bots really seated (a bound no analysis reaches)",
    )
    parser.add_argument(
        "--hidden",
        choices=("resampled", "known"),
        default="resampled",
        help="the chips' values the deciding diver has not seen redrawn (as analyses do), "
        "or the log's own (a diagnostic: what the face-down values cost)",
    )
    parser.add_argument(
        "--dump", help="write each forecast (game, event, third, p, playouts, outcome) as JSON"
    )
    args = parser.parse_args()
    budget = Budget(
        target_se=args.target_se, min_playouts=args.min_playouts, max_playouts=args.max_playouts
    )
    print(
        f"budget {budget.to_json()}, {args.sample} games per table, every {args.every}. "
        f"decision, {args.workers} workers; load {' '.join(f'{v:.2f}' for v in os.getloadavg())}"
        f" on {os.cpu_count()} CPUs; playouts: {args.pool or 'the game pool'}, randomness "
        f"{'the game' if args.randomness is None else args.randomness}; seats: {args.seats}; "
        f"hidden values: {args.hidden}",
        flush=True,
    )
    started = time.perf_counter()
    dumped: dict[str, list[list]] = {}
    with Pool(args.workers) as pool:
        for game_id in args.games.split(","):
            for kind in args.tables.split(","):
                jobs = [
                    (
                        game_id,
                        kind,
                        i,
                        args.every,
                        budget,
                        args.pool,
                        args.randomness,
                        args.seats,
                        args.hidden,
                    )
                    for i in range(args.sample)
                ]
                parts = pool.map(game_forecasts, jobs, chunksize=1)
                staged = [f for part, _, _ in parts for f in part]
                cpu = sum(seconds for _, seconds, _ in parts)
                dumped[f"{game_id}:{kind}"] = [row for _, _, rows in parts for row in rows]
                print(figures_line(game_id, kind, staged, cpu), flush=True)
                print(denoised_line(staged), flush=True)
    if args.dump:
        Path(args.dump).write_text(json.dumps(dumped))
    print(
        f"{time.perf_counter() - started:.0f} s wall; load at the end "
        f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}"
    )


if __name__ == "__main__":
    main()
