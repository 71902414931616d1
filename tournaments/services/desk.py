"""The tournaments' side of the games/tournaments seam (games.services.tables): what the
upload page, the record page and the API of games ask about tables, answered here."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from games.models import GameLog
from games.services.errors import TableRefused
from tournaments.models import Table
from tournaments.services.recording import recordable_tables, table_start, table_to_record
from tournaments.services.results import attach_log

# Pages list at most this many tables to choose from.
OFFERED_TABLES = 200


class TournamentTableDesk:
    def open_tables(self, user: Any) -> list[tuple[int, str]]:
        return [(table.pk, str(table)) for table in recordable_tables(user)[:OFFERED_TABLES]]

    def recordable(self, user: Any) -> list[dict[str, Any]]:
        return [table_start(table) for table in recordable_tables(user)[:OFFERED_TABLES]]

    def check(self, table_id: Any, user: Any) -> None:
        table_to_record(user, table_id)

    def attach(self, table_id: Any, raw: str | bytes, *, user: Any, filename: str) -> GameLog:
        table = table_to_record(user, table_id)
        try:
            return attach_log(table, raw, user=user, filename=filename or f"result of {table}")
        except ValidationError as error:
            raise TableRefused(" ".join(error.messages)) from None

    def holds(self, log: GameLog) -> bool:
        return Table.objects.filter(log_id=log.pk).exists()
