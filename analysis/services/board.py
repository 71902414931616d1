"""The analysis board: one moment of a replay, every alternative decision evaluated.

The moment after event N (the viewer's #event-N; -1 is the setup) has a pending decision;
each legal action of the deciding seat is evaluated in turn with the seed the game's
analysis gives that decision, so an alternative the analysis evaluated shows the same
figure. Actions are evaluated one at a time for the progress bar (the estimates do not
depend on it: each action's playouts depend only on the seed and the playout count).
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import transaction
from django.db.models import F

from analysis.models import BoardRequest
from analysis.services.jobs import DEFAULT_SEED, AnalysisRefused, default_budget
from engines.analysis import Budget, engine_version, evaluate_position, read_table
from engines.analysis.evaluator import seat_actions
from engines.core.game import State
from engines.core.log import loads
from engines.core.replay import apply_events, start
from engines.registry import get_game
from games.models import GameLog


def position_after(log: dict[str, Any], index: int) -> tuple[State, int, list[dict]]:
    """The state after event `index` with its deciding seat and their legal actions."""
    events = log["events"]
    if not -1 <= index < len(events) - 1:
        raise AnalysisRefused(
            f"event must be -1 (the setup) to {len(events) - 2} for a decision to follow, "
            f"not {index}"
        )
    _, _, state = start(log)
    apply_events(state, events[: index + 1])
    if state.is_terminal():
        raise AnalysisRefused(f"the game is over after event {index}")
    seat = state.current_seat()
    if state.is_chance_node():
        raise AnalysisRefused(
            f"after event {index} comes a chance event (dice or a draw), not a decision"
        )
    actions = seat_actions(state, seat)
    return state, seat, actions


def request_board(log: GameLog, index: int, budget: Budget | None = None) -> BoardRequest:
    if log.status != GameLog.Status.VERIFIED:
        raise AnalysisRefused(f"this log is {log.status}: only verified games are analysed")
    budget = budget or default_budget()
    _, _, actions = position_after(loads(log.raw), index)
    request = BoardRequest.objects.create(
        log=log,
        index=index,
        engine_version=engine_version(log.game_type),
        budget=budget.to_json(),
        total=len(actions),
    )
    transaction.on_commit(lambda: board_task.delay(request.pk))
    return request


def run(request_id: int) -> None:
    request = BoardRequest.objects.select_related("log").get(pk=request_id)
    log = loads(request.log.raw)
    try:
        state, seat, actions = position_after(log, request.index)
        budget = Budget.from_json(request.budget)
        game = get_game(log["game"])
        ruleset, snapshot = game.ruleset(log.get("ruleset")), state.snapshot()
        # Each seat played as the game's analysis reads it at this moment, for the same figures.
        seats = read_table(log, request.index + 1).seats()
        estimates = []
        for action in actions:
            (estimate,) = evaluate_position(
                log["game"],
                state,
                seat,
                [action],
                len(log["players"]),
                budget=budget,
                seed=f"{DEFAULT_SEED}:{request.index + 1}",
                seats=seats,
            )
            # The action in the engine's words, as the replay names moves.
            estimates.append(
                {**estimate.to_json(), "text": game.describe(action, snapshot, ruleset)}
            )
            BoardRequest.objects.filter(pk=request.pk).update(
                done=F("done") + 1, estimates=estimates
            )
    except Exception as exc:
        BoardRequest.objects.filter(pk=request.pk).update(
            status=BoardRequest.Status.FAILED, error=str(exc)
        )
        raise
    estimates.sort(key=lambda e: -e["win"])
    BoardRequest.objects.filter(pk=request.pk).update(
        status=BoardRequest.Status.DONE, estimates=estimates
    )


def progress(request: BoardRequest) -> dict[str, Any]:
    return {
        "board": request.pk,
        "index": request.index,
        "status": request.status,
        "done": request.done,
        "total": request.total,
        "percent": round(100 * request.done / request.total, 1) if request.total else 100.0,
        "estimates": request.estimates,
        "error": request.error,
    }


@shared_task(name="analysis.tasks.board_task")
def board_task(request_id: int) -> None:
    run(request_id)
