"""The pages that span apps: the home page and a player's page."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from pages.services import front_page
from pages.services.profiles import player_profile
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
    player = get_object_or_404(Player, handle=handle)
    return render(request, "pages/player.html", player_profile(player, request.GET.get("page")))
