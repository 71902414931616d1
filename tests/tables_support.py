"""A running tournament with one open table, and the people around it: two players with
accounts (one seated there, one not), an organiser of the tournament and a staff member.
Used by the table-attachment, submission-rights and permission-matrix tests."""

from __future__ import annotations

import datetime
import json
import random
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client

from players.models import Player
from tournaments.demo import simulated_table_log
from tournaments.models import Registration, Round, Table, TableSeat, Tournament

SEATED = [("marina", "Marina"), ("nemo", "Nemo"), ("coral", "Coral")]
PLAYED = datetime.datetime(2026, 6, 1, 20, 0, tzinfo=datetime.UTC)


@dataclass
class Club:
    tournament: Tournament
    table: Table
    users: dict[str, Any]  # role -> user (None: anonymous)

    def client(self, role: str) -> Client:
        client = Client()
        if self.users[role] is not None:
            client.force_login(self.users[role])
        return client

    def table_log(self, seed: int = 3) -> dict[str, Any]:
        """A whole game of the table as seated (players, opener, game, ruleset)."""
        return simulated_table_log(self.table, random.Random(seed), PLAYED)


def user_with_player(username: str, handle: str, name: str, **flags: Any) -> Any:
    user = get_user_model().objects.create_user(username, **flags)
    Player.objects.update_or_create(handle=handle, defaults={"display_name": name, "user": user})
    return user


def club() -> Club:
    """Marina's account is seated at the open table; Kelp's account is not."""
    tournament = Tournament.objects.create(
        name="Club Night",
        slug="club-night",
        starts_on=PLAYED.date(),
        status=Tournament.Status.RUNNING,
    )
    round_ = Round.objects.create(tournament=tournament, number=1)
    table = Table.objects.create(round=round_, number=1)
    for seat, (handle, name) in enumerate(SEATED):
        player = Player.objects.create(handle=handle, display_name=name)
        Registration.objects.create(tournament=tournament, player=player)
        TableSeat.objects.create(table=table, seat=seat, player=player, opening_bidder=seat == 2)
    organiser = get_user_model().objects.create_user("organiser")
    tournament.organisers.add(organiser)
    users = {
        "anonymous": None,
        "seated player": user_with_player("marina-user", "marina", "Marina"),
        "other player": user_with_player("kelp-user", "kelp", "Kelp"),
        "organiser": organiser,
        "staff": get_user_model().objects.create_user("referee", is_staff=True),
    }
    return Club(tournament, table, users)


def dumps(log: dict[str, Any]) -> str:
    return json.dumps(log)
