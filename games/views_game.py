"""A game's page: its verdict, seats and results, and the step-through replay viewer."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET
from django_htmx.http import HttpResponseClientRefresh

from engines.registry import GAMES, get_game
from games import viewer
from games.models import Game, GameLog
from games.names import game_name, log_name


def visible_log(request: HttpRequest, log_id: int) -> GameLog:
    """A log the user may see: published, their own unpublished upload, or one waiting for
    their confirmation (staff see all)."""
    logs = GameLog.objects.visible_to(request.user).select_related("upload__submitted_by__player")
    return get_object_or_404(logs, pk=log_id)


# A log without a verdict yet: its page polls the verdict until a worker gives it one.
WAITING = {GameLog.Status.QUEUED, GameLog.Status.VERIFYING}


@require_GET
def game_page(request: HttpRequest, log_id: int) -> HttpResponse:
    log = visible_log(request, log_id)
    game = Game.objects.filter(log=log).prefetch_related("seats__player").first()
    if game is not None:
        game.log = log  # already read: naming the game asks the table desk about it
    events = viewer.count_events(log.raw)
    engine = get_game(log.game_type) if log.game_type in GAMES else None
    error_words = viewer.error_in_words(viewer.read_log(log.raw), log.error)
    stops = (log.error or {}).get("index")
    context = {
        "log": log,
        "waiting": log.status in WAITING,
        "game": game,
        # A log that made no game is named from what it knows: its upload, never its id.
        "name": game_name(game) if game else log_name(log),
        "seats": list(game.seats.all()) if game else [],
        "event_count": events,
        "error_words": error_words,
        "viewer": {
            "url": request.path + "replay/",
            "events": events,
            "all_at_once": events <= viewer.ALL_AT_ONCE,
            "picture": engine.picture if engine else "",
            "players": viewer.player_names(log.raw),
            "glossary": engine.glossary() if engine else {},
            # Where replay stops, said up front: a long game fetches its steps one at a
            # time and would learn it only once stepped there.
            "stops": {"index": stops, "words": error_words} if type(stops) is int else None,
        },
    }
    return render(request, "games/game_detail.html", context)


@require_GET
def game_verdict(request: HttpRequest, log_id: int) -> HttpResponse:
    """The verdict, which the page of a log waiting for a worker polls (htmx); once there is
    one, the page is asked to reload to show the game (seats, results, confirmation)."""
    log = visible_log(request, log_id)
    if log.status not in WAITING:
        return HttpResponseClientRefresh()
    return render(request, "games/_verdict.html", {"log": log, "waiting": True})


@require_GET
def game_replay(request: HttpRequest, log_id: int) -> JsonResponse:
    """Snapshots by replay: `?event=N` for the state after event N (-1: the setup), or all
    of them for a game of at most viewer.ALL_AT_ONCE events."""
    log = visible_log(request, log_id)
    total = viewer.count_events(log.raw)
    asked = request.GET.get("event")
    if asked is None:
        if total > viewer.ALL_AT_ONCE:
            return JsonResponse(
                {
                    "error": {
                        "text": f"this game has {total} events; ask for one with ?event=N "
                        f"(all at once only up to {viewer.ALL_AT_ONCE})"
                    }
                },
                status=400,
            )
        frames = viewer.replay_steps(log.raw)
    else:
        try:
            index = int(asked)
        except ValueError:
            return JsonResponse(
                {"error": {"text": f"event must be an integer, not {asked[:40]!r}"}}, status=400
            )
        if not -1 <= index < total:
            raise Http404(f"no event {index}: the log has events 0 to {total - 1}")
        frames = viewer.replay_steps(log.raw, first=index, last=index)
        if not frames.steps:
            raise Http404(f"event {index} comes after the log's first error")
    return JsonResponse(
        {
            "game": frames.game,
            "events": total,
            "steps": frames.steps,
            "error": frames.error,
        }
    )
