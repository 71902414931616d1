"""An admin column naming a row's game in words ("Deep Vents, 3 Dec 2026: Marina, Nemo,
Coral"), never "deep-vents log 107 (verified)": for every admin list whose rows carry a log
(reviews, tables, verdict changes). The page's names are read at once (names_of_logs), not
a few queries a row."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.utils.html import format_html

from games.models import GameLog
from games.names import names_of_logs, stored_log_name


class GameNamedInWords:
    """Mix into a ModelAdmin whose model has a `log`; list or show the column "game"."""

    @staticmethod
    def name_rows(rows: Any) -> list[Any]:
        """The rows, each given its game's name (`game_in_words`), read at once."""
        rows = list(rows)
        names = names_of_logs(row.log_id for row in rows if row.log_id is not None)
        for row in rows:
            row.game_in_words = names.get(row.log_id)
        return rows

    def get_changelist_instance(self, request):
        changelist = super().get_changelist_instance(request)
        self.name_rows(changelist.result_list)
        return changelist

    # A row named by its game (Review.__str__) is named at once on the page confirming a
    # deletion of the selected rows and in the admin's history of it, not a few queries a row.
    def get_deleted_objects(self, objs, request):
        return super().get_deleted_objects(self.name_rows(objs), request)

    def log_deletions(self, request, queryset):
        return super().log_deletions(request, self.name_rows(queryset))

    @admin.display(description="game", ordering="log")
    def game(self, row: Any) -> str:
        """The game's name, linked to its replay; a dash where the row has no log yet."""
        if row.log_id is None:
            return "—"
        name = getattr(row, "game_in_words", None) or stored_log_name(row.log)
        return format_html('<a href="{}">{}</a>', GameLog(pk=row.log_id).get_absolute_url(), name)
