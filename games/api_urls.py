"""The API (mounted at /api/): logs, uploads, games, the OpenAPI schema and its docs."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from games import api

router = DefaultRouter()
router.register("logs", api.LogViewSet, basename="log")
router.register("uploads", api.UploadViewSet, basename="upload")
router.register("games", api.GameViewSet, basename="game")

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: no inline script (CSP). Only GET:
    # its page cannot render an OPTIONS answer.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="api:schema", http_method_names=["get"]),
        name="docs",
    ),
    path("", include(router.urls)),
]
