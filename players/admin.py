from django.contrib import admin, messages

from players.models import Player
from players.tasks import refresh_player_stats_task


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["handle", "display_name", "canonical_name", "user", "created"]
    search_fields = ["handle", "display_name", "canonical_name", "user__username"]
    prepopulated_fields = {"handle": ["display_name"]}
    raw_id_fields = ["user"]
    readonly_fields = ["canonical_name", "created", "stats_refreshed_at"]
    actions = ["refresh_stats"]

    @admin.action(description="Refresh statistics of the selected players", permissions=["change"])
    def refresh_stats(self, request, queryset) -> None:
        player_ids = list(queryset.values_list("pk", flat=True))
        for player_id in player_ids:
            refresh_player_stats_task.delay_on_commit(player_id)
        self.message_user(
            request, f"Queued a statistics refresh for {len(player_ids)} player(s).", messages.INFO
        )
