"""What the recording tests share: posting JSON to the Record page's endpoints, a table's
recording as the page keeps it (its start from the seating, its steps), and a database
outage for the length of one request."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client

STEP = "/record/step/"
DEAL = "/record/deal/"
SAVE = "/record/save/"
DRAFTS = "/record/drafts/"


def post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def seated_start(table: Any) -> dict[str, Any]:
    """The log fields the page starts a table's recording from: its seating, as the table
    desk lists it (names in seat order; no setup yet)."""
    seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.seat)
    return {
        "game": table.round.tournament.game_type,
        "ruleset": {"name": table.round.tournament.ruleset},
        "players": [{"name": seat.player.display_name} for seat in seats],
    }


def as_steps(log: dict[str, Any]) -> list[dict[str, Any]]:
    """The page's steps for a log whose setup was dealt whole (no hex drawn one by one)."""
    return [{"event": event, "label": f"event {i}"} for i, event in enumerate(log["events"])]


def draft_of(log: dict[str, Any], table: Any, key: str = "kept-1") -> dict[str, Any]:
    base = {k: log[k] for k in ("game", "ruleset", "players", "setup")}
    return {"key": key, "base": {**base, "table": table.pk}, "steps": as_steps(log)}


def table_save(log: dict[str, Any], table: Any, key: str = "kept-1") -> dict[str, Any]:
    """The body the page posts to save a table's recording."""
    fields = {k: log[k] for k in ("game", "ruleset", "players", "setup", "events")}
    return {**fields, "table": table.pk, "draft": key}


@contextlib.contextmanager
def database_down() -> Iterator[None]:
    """Every new statement fails as on a connection the server dropped (the driver's error,
    wrapped by Django as it wraps a real one), as tests/test_database_outage.py does."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise connection.Database.OperationalError("server closed the connection unexpectedly")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(connection, "create_cursor", refuse)
        yield
