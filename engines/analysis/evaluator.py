"""Monte Carlo evaluation of decisions: the win probability each legal action leaves.

From a decision point, every playout (1) resamples what the deciding seat could not see
(`Game.resample`), (2) applies the action, (3) plays the game out with a playout bot at
every seat while the dice, draws and shells fall at random: the game's (`Game.playout_strategy`:
a mix of its heuristics, drawn per seat and playout, some of them playing a random legal
event now and then), or in a log's analysis that mix weighted, seat by seat, by how the seat
played so far (engines/analysis/table_reading.py). The deciding seat's share of the win (1,
or 1/k in a k-way tie, else 0) averaged over the playouts estimates its win probability
after that action.

Playout k of a decision uses the generator seeded "seed:index:k" for every action (common
random numbers: the actions are compared on the same resampled hidden information), so a
result depends only on the log, the seed and the budget, never on how decisions are split
into chunks.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engines.analysis.calibration import SURE_HIGH, SURE_LOW
from engines.analysis.table_reading import TableReading
from engines.core.game import Event, Game, State, Strategy
from engines.core.replay import start
from engines.core.simulate import play_to_end
from engines.registry import GAMES, get_game


@dataclass(frozen=True)
class Budget:
    """How many playouts an action gets.

    Playouts run in batches until the estimate's standard error is at most `target_se`
    (after at least `min_playouts`) or `max_playouts` are spent. A standard error of 0.03
    puts the true win probability (under the playout policy) within +-0.06 of the estimate
    19 times in 20; a win probability near 0.5 needs about 280 playouts for it, one near 0
    or 1 far fewer.
    """

    target_se: float = 0.03
    min_playouts: int = 32
    max_playouts: int = 400
    batch: int = 16
    # A sure call (below 0.02 or above 0.98) stands only on this many playouts: no win in
    # 150 puts the win probability under 0.02 19 times in 20 (the rule of three), where no
    # win in 32 would stop at the target error but leave it as high as 0.09.
    sure_playouts: int = 150

    def __post_init__(self) -> None:
        if not 0 < self.target_se <= 0.5:
            raise ValueError(f"target_se must be in (0, 0.5], not {self.target_se}")
        if not 2 <= self.min_playouts <= self.max_playouts:
            raise ValueError(
                f"need 2 <= min_playouts ({self.min_playouts}) <= max_playouts "
                f"({self.max_playouts})"
            )
        if self.batch < 1:
            raise ValueError(f"batch must be at least 1, not {self.batch}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Budget:
        return cls(**{key: data[key] for key in cls.__dataclass_fields__ if key in data})


DEFAULT_BUDGET = Budget()


@dataclass
class ActionEstimate:
    """One action's playouts: every seat's mean win share, and the decider's error."""

    action: Event
    seat: int
    playouts: int = 0
    total: float = 0.0
    total_sq: float = 0.0
    seat_totals: list[float] = field(default_factory=list)
    # Every playout ended with the action itself: the value is exact, not an estimate.
    exact: bool = True

    @property
    def win(self) -> float:
        return self.total / self.playouts if self.playouts else 0.0

    @property
    def shares(self) -> list[float]:
        return [t / self.playouts for t in self.seat_totals] if self.playouts else []

    @property
    def se(self) -> float:
        """Standard error of `win`. The variance is never taken below that of a binomial
        with one extra win and loss (so 32 losses in a row do not claim an error of 0)."""
        n = self.playouts
        if n < 2:
            return 0.5
        mean = self.total / n
        sample_var = max(0.0, (self.total_sq - n * mean * mean) / (n - 1))
        smoothed = (self.total + 1) / (n + 2)
        return math.sqrt(max(sample_var, smoothed * (1 - smoothed)) / n)

    def add(self, shares: Sequence[float]) -> None:
        if not self.seat_totals:
            self.seat_totals = [0.0] * len(shares)
        value = shares[self.seat]
        self.playouts += 1
        self.total += value
        self.total_sq += value * value
        for seat, share in enumerate(shares):
            self.seat_totals[seat] += share

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "win": round(self.win, 4),
            "se": round(self.se, 4),
            "playouts": self.playouts,
            "shares": [round(s, 4) for s in self.shares],
        }


@dataclass
class DecisionAnalysis:
    """One decision of a game: what was played, what was best, what it cost."""

    index: int  # the event's index in the log
    seat: int
    phase: str
    played: Event
    estimates: list[ActionEstimate]  # best first

    @property
    def best(self) -> ActionEstimate:
        return self.estimates[0]

    @property
    def played_estimate(self) -> ActionEstimate:
        return next(e for e in self.estimates if e.action == self.played)

    @property
    def cost(self) -> float:
        return max(0.0, self.best.win - self.played_estimate.win)

    @property
    def cost_se(self) -> float:
        if self.best is self.played_estimate:
            return 0.0
        return math.hypot(self.best.se, self.played_estimate.se)

    def to_json(self) -> dict[str, Any]:
        played = self.played_estimate
        return {
            "index": self.index,
            "seat": self.seat,
            "phase": self.phase,
            "played": self.played,
            "best": self.best.action,
            "win": round(played.win, 4),
            "best_win": round(self.best.win, 4),
            "cost": round(self.cost, 4),
            "cost_se": round(self.cost_se, 4),
            "shares": [round(s, 4) for s in played.shares],
            "alternatives": [e.to_json() for e in self.estimates],
        }


@dataclass
class DecisionPoint:
    """A moment of a log where the seat that acted had more than one legal action."""

    index: int
    seat: int
    state: State  # the live replay state before the event: clone before keeping it
    actions: list[Event]
    played: Event


def playout_bot(game: Game, playout: str | type[Strategy] | None = None) -> type[Strategy]:
    """The bot every seat of a playout plays: the game's, or the one named or given."""
    if playout is None:
        return game.playout_strategy()
    return game.strategies[playout] if isinstance(playout, str) else playout


def is_sure(win: float) -> bool:
    """A win probability the analysis calls all but certain (issue 24's "sure" call)."""
    return win < SURE_LOW or win > SURE_HIGH


def matching_action(actions: Sequence[Event], event: Mapping[str, Any]) -> Event | None:
    """The legal action a log event is (a log event may carry extra fields, e.g. a note)."""
    for action in actions:
        if all(event.get(key) == value for key, value in action.items()):
            return action
    return None


def seat_actions(state: State, seat: int) -> list[Event]:
    """The legal actions of `seat` (some engines also offer other seats an action)."""
    return [a for a in state.legal_actions() if a.get("seat", seat) == seat]


def decision_points(log: Mapping[str, Any]) -> Iterator[DecisionPoint]:
    """Every real choice in a log, in order (chance events and forced moves are skipped)."""
    _, _, state = start(log)
    for index, event in enumerate(log["events"]):
        if not state.is_chance_node():
            seat = event.get("seat")
            actions = seat_actions(state, seat) if isinstance(seat, int) else []
            played = matching_action(actions, event) if len(actions) > 1 else None
            if played is not None:
                yield DecisionPoint(index, seat, state, actions, played)
        state.apply_action(event)


def win_shares(state: State, players: int) -> list[float]:
    """Each seat's share of the win of a finished game: ties share it equally."""
    winners = state.outcome().winners
    shares = [0.0] * players
    for seat in winners:
        shares[seat] = 1.0 / len(winners)
    return shares


def evaluate_position(
    game_id: str,
    state: State,
    seat: int,
    actions: Sequence[Event],
    players: int,
    *,
    budget: Budget = DEFAULT_BUDGET,
    seed: str = "0",
    playout: str | type[Strategy] | None = None,
    seats: Sequence[type[Strategy]] | None = None,
) -> list[ActionEstimate]:
    """Every action's estimate, best first (ties keep the order of `actions`).

    `state` is not changed; `playout` names or gives another playout bot than the game's;
    `seats` gives each seat its own (what the log so far tells of how each seat plays:
    engines.analysis.table_reading), instead of one bot at every seat.
    Playouts go to the actions whose error is still above the target, a batch at a time, so
    clear-cut actions stop early.
    """
    game = get_game(game_id)
    table = list(seats) if seats is not None else [playout_bot(game, playout)] * players
    estimates = [ActionEstimate(action, seat) for action in actions]
    if state.is_terminal():
        raise ValueError("a finished game has no decision to evaluate")
    open_ = list(estimates)
    while open_:
        # Every open action has had as many playouts (a round gives each a batch, up to the
        # same cap), so playout k's start, resampled from the generator seeded k, is drawn
        # once and copied for each action, with the generator as it stood after the draw:
        # what a resample per action gave, for one resample and a copy per further action.
        first = open_[0].playouts
        last = len(open_) - 1
        for k in range(first, min(first + budget.batch, budget.max_playouts)):
            rng = random.Random(f"{seed}:{k}")
            start_k = game.resample(state, seat, rng)
            if last:  # a snapshot costs more than a seeding: only for actions that share it
                drawn = rng.getstate()
            for number, estimate in enumerate(open_):
                if number:
                    rng.setstate(drawn)
                trial = start_k if number == last else start_k.clone()
                trial.apply_action(estimate.action)
                if play_to_end(trial, [bot() for bot in table], rng):
                    estimate.exact = False
                estimate.add(win_shares(trial, players))
        open_ = [
            e
            for e in open_
            if e.playouts < budget.max_playouts
            and (
                e.playouts < budget.min_playouts
                or e.se > budget.target_se
                or (is_sure(e.win) and not e.exact and e.playouts < budget.sure_playouts)
            )
        ]
    return sorted(estimates, key=lambda e: -e.win)


def read_table(log: Mapping[str, Any], before: int | None = None) -> TableReading:
    """How each seat played the decisions of `log` before event `before` (all: None)."""
    reading = TableReading(get_game(log["game"]), len(log["players"]))
    for point in decision_points(log):
        if before is not None and point.index >= before:
            break
        reading.observe(point)
    return reading


def analyse_log(
    log: Mapping[str, Any],
    *,
    budget: Budget = DEFAULT_BUDGET,
    seed: str = "0",
    indices: set[int] | None = None,
    on_decision: Callable[[DecisionAnalysis], None] | None = None,
) -> list[DecisionAnalysis]:
    """Evaluate the decisions of a log (only those at `indices`, when given). Each seat's
    playout bot is read from how it played before the decision (read_table)."""
    game_id = log["game"]
    game = get_game(game_id)
    players = len(log["players"])
    reading = TableReading(game, players)
    last = None if indices is None else max(indices, default=-1)
    results = []
    for point in decision_points(log):
        if last is not None and point.index > last:
            break
        if indices is None or point.index in indices:
            estimates = evaluate_position(
                game_id,
                point.state,
                point.seat,
                point.actions,
                players,
                budget=budget,
                seed=f"{seed}:{point.index}",
                seats=reading.seats(),
            )
            analysis = DecisionAnalysis(
                point.index, point.seat, game.decision_phase(point.state, point.actions),
                point.played, estimates,
            )  # fmt: skip
            results.append(analysis)
            if on_decision is not None:
                on_decision(analysis)
        reading.observe(point)
    return results


@cache
def engine_version(game_id: str) -> str:
    """A fingerprint of the code an analysis depends on: the game's package, the shared
    core and this evaluator. Any change to their sources gives a new version."""
    root = Path(__file__).resolve().parent.parent
    package = GAMES[game_id].split(":")[0].rsplit(".", 1)[0].split(".")[-1]
    digest = hashlib.sha256()
    for folder in ("core", package, "analysis"):
        for path in sorted((root / folder).iterdir()):
            if path.suffix in (".py", ".json"):
                digest.update(path.name.encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]
