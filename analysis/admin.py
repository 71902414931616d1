from django.contrib import admin

from analysis.models import Analysis


@admin.register(Analysis)
class AnalysisAdmin(admin.ModelAdmin):
    list_display = ("log", "game_type", "status", "engine_version", "stale", "done", "total")
    list_filter = ("status", "stale", "game_type")
    readonly_fields = ("decisions",)
