"""The pages that span apps: the home page and a player's page."""

import orjson
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from pages.services import front_page
from pages.services.profiles import player_named, player_profile, rating_history_data
from players.models import Player


def home(request: HttpRequest) -> HttpResponse:
    context = {
        "player_count": Player.objects.count(),
        "tournaments": front_page.active_tournaments(),
        "recent_games": front_page.recent_games(),
        "leaders": front_page.leaders(),
    }
    return render(request, "pages/home.html", context)


def player_detail(request: HttpRequest, handle: str) -> HttpResponse:
    player = player_named(handle)
    if player is None:
        raise Http404(f"no player {handle!r}")
    return render(request, "pages/player.html", player_profile(player, request.GET.get("page")))


def player_ratings(request: HttpRequest, handle: str) -> HttpResponse:
    """The player's rating chart as Plotly's JSON, a point a rated game: fetched by
    static/charts.js when the reader explores the chart their page pictures (issue 25)."""
    player = player_named(handle)
    if player is None:
        return JsonResponse({"error": f"no player {handle!r}"}, status=404)
    figure = rating_history_data(player)
    if figure is None:
        return JsonResponse({"error": f"{handle!r} has no rated games yet"}, status=404)
    # orjson: the history's thousands of numbers and dates written in C.
    return HttpResponse(orjson.dumps(figure), content_type="application/json")
