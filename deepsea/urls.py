"""Top-level URLs. Each section of the site is included from its app."""

from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView, TemplateView

from pages.views import home

# The admin is the site's own back office, named as the site.
admin.site.site_header = "Deep-sea tournaments"
admin.site.site_title = "Deep-sea tournaments admin"
admin.site.index_title = "Tournaments, games and players"


class FaviconView(RedirectView):
    """/favicon.ico, which browsers ask for on pages that link no icon (the API docs)."""

    permanent = False

    def get_redirect_url(self, *args, **kwargs) -> str:
        return static("favicon.svg")


urlpatterns = [
    path("", home, name="home"),
    path("favicon.ico", FaviconView.as_view()),
    path("robots.txt", TemplateView.as_view(template_name="robots.txt", content_type="text/plain")),
    path("admin/", admin.site.urls),
    path("account/", include("allauth.urls")),
    path("account/", include("accounts.urls")),
    path("account/", include("confirmations.urls")),
    path("account/notices/", include("notices.urls")),
    path("tournaments/", include("tournaments.urls")),
    path("players/", include("pages.player_urls")),
    path("leaderboards/", include("ratings.urls")),
    path("", include("games.urls")),
    path("api/", include("games.api_urls")),
    path("api/", include("confirmations.api_urls")),
    path("stats/", include("stats.urls")),
    path("", include("analysis.urls")),
]

# A database outage is a 503 with Retry-After even outside a view (common/middleware.py).
handler400 = "common.errors.bad_request"
handler403 = "common.errors.permission_denied"
handler404 = "common.errors.page_not_found"
handler500 = "common.errors.server_error"
