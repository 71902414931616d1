from django.contrib import admin

from ratings.models import Rating


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """Read-only: ratings are derived (manage.py recompute_ratings rebuilds them)."""

    list_display = ["player", "game_type", "rating", "mu", "sigma", "games", "wins", "last_played"]
    list_filter = ["game_type"]
    search_fields = ["player__handle", "player__display_name"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
