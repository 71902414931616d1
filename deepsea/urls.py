"""Top-level URLs. Each section of the site is included from its app."""

from django.contrib import admin
from django.urls import path

from tournaments.views import home

urlpatterns = [
    path("", home, name="home"),
    path("admin/", admin.site.urls),
]
