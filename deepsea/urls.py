"""Top-level URLs. Each section of the site is included from its app."""

from django.contrib import admin
from django.urls import include, path

from tournaments.views import home

urlpatterns = [
    path("", home, name="home"),
    path("admin/", admin.site.urls),
    path("account/", include("allauth.urls")),
    path("account/", include("accounts.urls")),
    path("account/", include("confirmations.urls")),
    path("account/notices/", include("notices.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("players/", include("tournaments.player_urls")),
    path("leaderboards/", include("ratings.urls")),
    path("", include("games.urls")),
    path("api/", include("games.api_urls")),
    path("api/", include("confirmations.api_urls")),
    path("stats/", include("stats.urls")),
    path("", include("analysis.urls")),
]

# A database outage is a 503 with Retry-After even outside a view (deepsea/middleware.py).
handler400 = "deepsea.errors.bad_request"
handler403 = "deepsea.errors.permission_denied"
handler404 = "deepsea.errors.page_not_found"
handler500 = "deepsea.errors.server_error"
