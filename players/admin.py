from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from players.merge import merge_players
from players.models import Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["handle", "display_name", "canonical_name", "user", "created"]
    search_fields = ["handle", "display_name", "canonical_name", "user__username"]
    prepopulated_fields = {"handle": ["display_name"]}
    raw_id_fields = ["user"]
    readonly_fields = ["canonical_name", "created"]
    actions = ["merge_duplicates"]

    @admin.action(
        description="Merge the selected players (duplicates) into the oldest one",
        permissions=["change"],
    )
    def merge_duplicates(self, request, queryset) -> None:
        players = list(queryset.order_by("created", "pk"))
        if len(players) < 2:
            self.message_user(request, "Select at least two players to merge.", messages.ERROR)
            return
        keep, duplicates = players[0], players[1:]
        try:
            moved = merge_players(keep, duplicates)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
            return
        self.message_user(
            request,
            f"Merged {len(duplicates)} player(s) into {keep}; {moved} game seat(s) moved.",
            messages.SUCCESS,
        )
