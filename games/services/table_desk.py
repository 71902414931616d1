"""The seam through which a log becomes the result of a tournament table.

games sits below tournaments and imports nothing of it. The app that owns tables
(tournaments) registers a TableDesk in its AppConfig.ready(); the upload page, the record
page and the API hand every submission naming a table to that desk, which checks it and
attaches it (or refuses it with a TableRefused naming the problem). Without a desk, no
submission may name a table. The lists' tournament filter and the confirmations' trust in
organisers ask it too, so no app below or beside tournaments reads its tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from django.db.models import QuerySet

from games.models import GameLog
from games.services.errors import TableRefused


@dataclass(frozen=True)
class TablePlace:
    """Where a tournament game was played, as players know it."""

    tournament: str
    round: int
    table: int

    def __str__(self) -> str:
        return f"{self.tournament} · round {self.round} · table {self.table}"


class TableDesk(Protocol):
    def open_tables(self, user: Any) -> list[tuple[int, str]]:
        """(id, label) of the tables `user` may give a result now, for a page to offer."""

    def recordable(self, user: Any) -> list[dict[str, Any]]:
        """What the seating fixes for each table `user` may record (game, ruleset,
        players in seat order, setup), for the record page to prefill."""

    def seating(self, table_id: Any, user: Any) -> dict[str, Any]:
        """What the seating fixes for a recording of table `table_id` (as `recordable`),
        open or not; TableRefused if there is no such table or `user` may not record it."""

    def check(self, table_id: Any, user: Any) -> None:
        """Raise TableRefused unless `user` may submit the result of table `table_id` now."""

    def attach(self, table_id: Any, raw: str | bytes, *, user: Any, filename: str) -> GameLog:
        """Check the log against the table and store it as the table's result."""

    def holds(self, log: GameLog) -> bool:
        """Whether the log is the result of a table."""

    def place_of(self, log: GameLog) -> TablePlace | None:
        """The tournament, round and table whose result the log is; None for a game played
        at no table."""

    def logs_of_tournament(self, tournament_id: int) -> QuerySet:
        """The ids of the logs that are results of the tournament's tables (a subquery), for
        the log and game lists' tournament filter."""

    def attached_by_organisers(self, logs: list[GameLog]) -> set[int]:
        """The ids of those logs attached to their table by staff or one of its tournament's
        organisers (their results count without the players' confirmation)."""


class NoTables:
    """The desk of a site without tournaments: nothing to offer, any table refused."""

    def open_tables(self, user: Any) -> list[tuple[int, str]]:
        return []

    def recordable(self, user: Any) -> list[dict[str, Any]]:
        return []

    def seating(self, table_id: Any, user: Any) -> dict[str, Any]:
        raise TableRefused(f"there is no table {table_id}", 404)

    def check(self, table_id: Any, user: Any) -> None:
        raise TableRefused(f"there is no table {table_id}", 404)

    def attach(self, table_id: Any, raw: str | bytes, *, user: Any, filename: str) -> GameLog:
        raise TableRefused(f"there is no table {table_id}", 404)

    def holds(self, log: GameLog) -> bool:
        return False

    def place_of(self, log: GameLog) -> TablePlace | None:
        return None

    def logs_of_tournament(self, tournament_id: int) -> QuerySet:
        return GameLog.objects.none().values("pk")

    def attached_by_organisers(self, logs: list[GameLog]) -> set[int]:
        return set()


_registered: list[TableDesk] = [NoTables()]


def register_table_desk(desk: TableDesk) -> None:
    _registered[0] = desk


def table_desk() -> TableDesk:
    return _registered[0]
