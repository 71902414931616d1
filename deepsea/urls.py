"""Top-level URLs. Each section of the site is included from its app."""

from django.contrib import admin
from django.urls import include, path

from tournaments.views import home

urlpatterns = [
    path("", home, name="home"),
    path("admin/", admin.site.urls),
    path("tournaments/", include("tournaments.urls")),
    path("players/", include("tournaments.player_urls")),
    path("leaderboards/", include("ratings.urls")),
    path("", include("games.urls")),
    path("api/", include("games.api_urls")),
    path("stats/", include("stats.urls")),
    path("", include("analysis.urls")),
]
