"""Admin for game logs: staff inspect verdicts, and deleting a log retracts its game."""

from django.contrib import admin

from games.admin_columns import GameNamedInWords
from games.models import Game, GameLog, GameSeat, Upload, VerdictChange
from games.services.removal import delete_log


@admin.register(Upload)
class UploadAdmin(admin.ModelAdmin):
    list_display = ["__str__", "submitted_by", "source", "published", "created"]
    list_filter = ["source", "published"]
    readonly_fields = ["line_errors", "duplicates"]


@admin.register(GameLog)
class GameLogAdmin(admin.ModelAdmin):
    list_display = ["pk", "game_type", "status", "attempts", "created", "verified_at"]
    list_filter = ["status", "game_type"]
    search_fields = ["sha256"]
    readonly_fields = ["raw", "sha256", "error", "attempts", "status_changed", "verified_at"]

    def delete_model(self, request, obj: GameLog) -> None:
        delete_log(obj.pk)

    def delete_queryset(self, request, queryset) -> None:
        for log_id in queryset.values_list("pk", flat=True):
            delete_log(log_id)


class GameSeatInline(admin.TabularInline):
    model = GameSeat
    extra = 0
    can_delete = False
    # Not `game`: every row would name the page's own game again.
    readonly_fields = [f.name for f in GameSeat._meta.fields if f.name != "game"]

    def get_queryset(self, request):
        # Each row is labelled by its seat's __str__, which names the game (its log, table
        # and seats) and the seat's player: read with the seats, not a query a row.
        return (
            super()
            .get_queryset(request)
            .select_related("player", "game__log__table__round__tournament")
            .defer("game__log__raw")
            .prefetch_related("game__seats")
        )


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["pk", "game_type", "source", "played_at", "player_count"]
    list_filter = ["game_type", "source"]
    exclude = ["facts"]
    inlines = [GameSeatInline]

    # Derived by replay: a game changes through reverify and goes by deleting its log
    # (which retracts it first).
    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(VerdictChange)
class VerdictChangeAdmin(GameNamedInWords, admin.ModelAdmin):
    list_display = ["game", "old_status", "new_status", "checked_at"]
    list_filter = ["new_status"]
