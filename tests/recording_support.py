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
    wrapped by Django as it wraps a real one), as tests/project/test_database_outage.py does."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise connection.Database.OperationalError("server closed the connection unexpectedly")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(connection, "create_cursor", refuse)
        yield


def two_player_table() -> tuple[Any, dict[str, Any]]:
    """A running Deep Vents tournament (starting bid) with one open table: Marina in seat 0,
    Coral in seat 1, Coral drawn to open the bidding (DV-3). Marina has an account; so has
    the organiser."""
    import datetime

    from django.contrib.auth import get_user_model

    from players.models import Player
    from tournaments.models import Registration, Round, Table, TableSeat, Tournament

    tournament = Tournament.objects.create(
        name="Reef Open",
        slug="reef-open",
        starts_on=datetime.date(2026, 6, 1),
        status=Tournament.Status.RUNNING,
    )
    table = Table.objects.create(
        round=Round.objects.create(tournament=tournament, number=1), number=1
    )
    marina = get_user_model().objects.create_user("marina-user")
    organiser = get_user_model().objects.create_user("organiser")
    tournament.organisers.add(organiser)
    seated = [("marina", "Marina Abyss", marina), ("coral", "Coral Reefson", None)]
    for seat, (handle, name, user) in enumerate(seated):
        player = Player.objects.create(handle=handle, display_name=name, user=user)
        Registration.objects.create(tournament=tournament, player=player)
        TableSeat.objects.create(table=table, seat=seat, player=player, opening_bidder=seat == 1)
    return table, {"marina": marina, "organiser": organiser}


def played_to_the_end(base: dict[str, Any], steps: list[dict[str, Any]], seed: int = 5) -> list:
    """The steps of `base`'s game after `steps` (events only: a dealt setup), played to the
    end by the engine's bots, each labelled as the Record page labels it."""
    import random

    from engines.core.simulate import play_out
    from engines.registry import get_game

    game = get_game(base["game"])
    ruleset = game.ruleset(base["ruleset"])
    state = game.new_state(ruleset, len(base["players"]), base["setup"])
    for step in steps:
        state.apply_action(step["event"])
    strategy = game.strategies[sorted(game.strategies)[0]]
    snapshots = [state.snapshot()]  # before each event, to word it
    events = play_out(
        state,
        [strategy() for _ in base["players"]],
        random.Random(seed),
        on_event=lambda after: snapshots.append(after.snapshot()),
    )
    return [
        {"event": event, "label": game.describe(event, before, ruleset)}
        for event, before in zip(events, snapshots, strict=False)
    ]
