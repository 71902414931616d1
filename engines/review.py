"""A stored analysis as a player reads it: every decision in words with its mark and the
better move, each player's accuracy, and what caused each real swing of the chances.

Works on the JSON an analysis stores (`DecisionAnalysis.to_json()` per decision) and the log
it analysed: the moves are named by replaying the log and asking the game for each event in
words (`Game.describe`, against the table just before it), so analyses stored before this
module existed read the same way. It lives outside engines/analysis on purpose: the engine
version fingerprints that folder, and how a result reads must not make stored results stale.

Marks (after lichess, whose drops of 0.1/0.2/0.3 in winning chances on a -1..1 scale are
0.05/0.10/0.15 on the 0..1 scale used here): a decision's drop is the win probability the
move played gave away against the best move found (`cost`). A drop of 0.05 or more is an
inaccuracy, 0.10 a mistake, 0.15 a blunder, but only when it is more than twice its standard
error: a smaller one may be playout noise, and counts as no drop at all.

Accuracy (lichess's per-move formula): 103.1668 * exp(-0.04354 * drop in percentage points)
- 3.1669, clamped to 0-100, so no drop scores 100 and a drop of 0.15 about 51; a player's
accuracy for the game is the plain mean over their decisions.

Swings: between a decision and the next, the chances move by what happened in between (the
dice, the draws, forced moves) and by the next move itself. The part before the next move is
its best estimate's shares less the previous move's shares; after the last decision, the
game's result less its shares. A part of 0.10 or more for some player, beyond twice its
standard error, is a swing the page explains by the events that caused it. Each estimate
resamples what its own decider could not see, so part of a swing can be what the next
decider knows; back-to-back decisions, with no event between them, are never called a swing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from engines.core.replay import start

# (mark, smallest drop), largest first.
MARKS: tuple[tuple[str, float], ...] = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
NOISE_SE = 2.0  # a drop or swing within this many standard errors may be playout noise
SWING = 0.10  # the smallest change of a player's chances the page explains
MAX_CAUSES = 6  # events named for one swing (the last ones: nearest the moment shown)


def real_drop(cost: float, cost_se: float) -> float:
    """The drop a move counts for: its cost, or 0 when within playout noise."""
    return cost if cost > NOISE_SE * cost_se else 0.0


def mark(drop: float) -> str | None:
    for name, least in MARKS:
        if drop >= least:
            return name
    return None


def move_accuracy(drop: float) -> float:
    """Lichess's accuracy of one move from its drop in win probability (0..1)."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * drop * 100) - 3.1669))


def accuracy(decisions: Sequence[Mapping[str, Any]], seat: int) -> float | None:
    """A seat's accuracy over the stored decisions (None when it made none)."""
    scores = [
        move_accuracy(real_drop(d["cost"], d["cost_se"])) for d in decisions if d["seat"] == seat
    ]
    return sum(scores) / len(scores) if scores else None


@dataclass
class Move:
    """One decision as the page shows it."""

    index: int
    seat: int
    player: str
    moment: str  # when in the game, in its own words ("turn 7"); "" where the game has none
    played: str
    best: str | None  # the better move in words; None unless it is better beyond noise
    win: float  # the player's chances after the move played
    best_win: float
    shares: list[float]  # every player's chances after the move played
    drop: float
    mark: str | None
    accuracy: float


@dataclass
class Cause:
    index: int
    player: str | None
    text: str


@dataclass
class Swing:
    """A real change of a player's chances before the move at `index` (or at the end)."""

    index: int  # the decision it leads up to; the last event's index at the end
    player: str
    before: float
    after: float
    causes: list[Cause] = field(default_factory=list)


@dataclass
class Review:
    players: list[str]
    moves: list[Move]
    swings: list[Swing]
    accuracy: list[float | None]  # by seat
    counts: list[dict[str, int]]  # by seat: how many of each mark

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Span:
    """A real swing found in the numbers, before its events are named."""

    index: int
    seat: int
    first: int  # the events between first and stop (exclusive) caused it
    stop: int
    before: float
    after: float

    def causes(self) -> range:
        return range(max(self.first, self.stop - MAX_CAUSES), self.stop)


def _estimate(decision: Mapping[str, Any], action: Mapping[str, Any]) -> Mapping[str, Any]:
    return next(
        (e for e in decision.get("alternatives", []) if e["action"] == action),
        {"shares": decision["shares"], "se": 0.0, "playouts": 0},
    )


def _share_se(share: float, playouts: int) -> float:
    """A seat's share's standard error over `playouts` (the evaluator's smoothed binomial)."""
    if playouts < 2:
        return 0.5
    smoothed = (share * playouts + 1) / (playouts + 2)
    return math.sqrt(smoothed * (1 - smoothed) / playouts)


def _swing(
    before: Sequence[float],
    before_playouts: int,
    after: Sequence[float],
    after_playouts: int | None,
) -> tuple[int, float] | None:
    """The seat whose chances moved most between two estimates, if the move is real
    (`after_playouts` None: `after` is the game's result, known exactly)."""
    best: tuple[int, float] | None = None
    for seat, (old, new) in enumerate(zip(before, after, strict=True)):
        change = abs(new - old)
        se = math.hypot(
            _share_se(old, before_playouts),
            0.0 if after_playouts is None else _share_se(new, after_playouts),
        )
        if change >= SWING and change > NOISE_SE * se and (best is None or change > best[1]):
            best = (seat, change)
    return best


def _result_shares(state: Any, players: int) -> list[float] | None:
    if not state.is_terminal():
        return None
    winners = state.outcome().winners
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]


def review(log: Mapping[str, Any], decisions: Sequence[Mapping[str, Any]]) -> Review:
    """The stored decisions of `log` (in event order) in words, with marks and swings."""
    game, ruleset, state = start(log)
    events = log["events"]
    players = [str(p.get("name", "?")) for p in log["players"]]
    by_index = {d["index"]: d for d in decisions}

    # Which events need naming: every decision, and the events of each real swing.
    spans: list[_Span] = []
    previous: Mapping[str, Any] | None = None
    for decision in decisions:
        # Back-to-back decisions have nothing between them to name: their estimates differ
        # by what each decider knows and by noise.
        if previous is not None and previous["index"] + 1 < decision["index"]:
            best = _estimate(decision, decision["best"])
            played = _estimate(previous, previous["played"])
            found = _swing(played["shares"], played["playouts"], best["shares"], best["playouts"])
            if found:
                seat = found[0]
                old, new = played["shares"][seat], best["shares"][seat]
                first = previous["index"] + 1
                spans.append(_Span(decision["index"], seat, first, decision["index"], old, new))
        previous = decision
    # The events after the last decision, in case the result swings the chances.
    tail = range(
        max(previous["index"] + 1 if previous else 0, len(events) - MAX_CAUSES), len(events)
    )
    wanted = set(by_index) | set(tail)
    wanted |= {i for span in spans for i in span.causes()}

    snapshots: dict[int, Mapping[str, Any]] = {}
    if 0 in wanted:
        snapshots[0] = state.snapshot()

    def keep(index: int, live: Any) -> None:
        if index + 1 in wanted:
            snapshots[index + 1] = live.snapshot()

    state.apply_events(events, keep)
    if previous is not None:
        result = _result_shares(state, len(players))
        played = _estimate(previous, previous["played"])
        found = _swing(played["shares"], played["playouts"], result, None) if result else None
        found = found if tail else None
        if found:
            seat = found[0]
            old, new = played["shares"][seat], result[seat]
            spans.append(_Span(len(events) - 1, seat, tail.start, len(events), old, new))

    def words(index: int, event: Mapping[str, Any] | None = None) -> str:
        return game.describe(event or events[index], snapshots[index], ruleset)

    moves = []
    counts = [{name: 0 for name, _ in MARKS} for _ in players]
    for d in decisions:
        drop = real_drop(d["cost"], d["cost_se"])
        kind = mark(drop)
        if kind:
            counts[d["seat"]][kind] += 1
        better = d["best"] != d["played"] and drop > 0  # a better move beyond noise
        moves.append(
            Move(
                index=d["index"],
                seat=d["seat"],
                player=players[d["seat"]],
                moment=game.moment(snapshots[d["index"]]),
                played=words(d["index"]),
                best=words(d["index"], d["best"]) if better else None,
                win=d["win"],
                best_win=d["best_win"],
                shares=list(d["shares"]),
                drop=round(drop, 4),
                mark=kind,
                accuracy=round(move_accuracy(drop), 1),
            )
        )
    swings = []
    for span in spans:
        causes = [
            Cause(i, players[s] if isinstance(s := events[i].get("seat"), int) else None, words(i))
            for i in span.causes()
        ]
        swings.append(Swing(span.index, players[span.seat], span.before, span.after, causes))
    return Review(
        players=players,
        moves=moves,
        swings=swings,
        accuracy=[
            None if (a := accuracy(decisions, seat)) is None else round(a, 1)
            for seat in range(len(players))
        ],
        counts=counts,
    )
