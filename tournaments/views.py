from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.models import Player


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/home.html", {"player_count": Player.objects.count()})
