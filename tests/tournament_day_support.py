"""A tournament day being set up: a Deep Vents tournament in registration, its organiser, a
staff member, an outsider organiser of another tournament, and eight players with accounts
(claimed names). Shared by the tournament-day tests and their permission matrix."""

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
from tournaments.models import Table, Tournament

PLAYERS = [
    "Marina Abyss",
    "Coral Reefson",
    "Nemo Trench",
    "Zoë Ó Súilleabháin",
    "Kelp Forrester",
    "Pearl Diver",
    "Squid Vicious",
    "Angler Fisher-Lantern",
]
PLAYED = datetime.datetime(2026, 6, 1, 20, 0, tzinfo=datetime.UTC)


@dataclass
class Day:
    tournament: Tournament
    organiser: Any
    staff: Any
    other_organiser: Any  # organises another tournament, not this one
    players: dict[str, Any]  # name -> user whose claimed player has that name

    def client(self, user: Any) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    def player(self, name: str) -> Player:
        return self.players[name].player

    def url(self, tail: str = "") -> str:
        return f"/tournaments/{self.tournament.slug}/{tail}"


def user_playing_as(username: str, name: str, **flags: Any) -> Any:
    user = get_user_model().objects.create_user(username, password="deep-sea-day", **flags)
    Player.objects.create(handle=username, display_name=name, user=user)
    return user


def tournament_day(players: list[str] = PLAYERS, **fields: Any) -> Day:
    tournament = Tournament.objects.create(
        name="Harbour Open",
        slug="harbour-open",
        starts_on=PLAYED.date(),
        rounds_planned=3,
        **fields,
    )
    organiser = get_user_model().objects.create_user("olga", password="deep-sea-day")
    tournament.organisers.add(organiser)
    elsewhere = Tournament.objects.create(
        name="Other Cup", slug="other-cup", starts_on=PLAYED.date()
    )
    other = get_user_model().objects.create_user("otto", password="deep-sea-day")
    elsewhere.organisers.add(other)
    staff = get_user_model().objects.create_user("sam", password="deep-sea-day", is_staff=True)
    users = {
        name: user_playing_as(f"player-{index}", name) for index, name in enumerate(players, 1)
    }
    return Day(tournament, organiser, staff, other, users)


def table_log(table: Table, seed: int) -> str:
    """A whole game of this table as seated (players, opener, ruleset), made by bots."""
    return json.dumps(simulated_table_log(table, random.Random(seed), PLAYED))
