"""Helpers for the confirmation tests: players with logins, and games they submit."""

from __future__ import annotations

import datetime
import json

from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.utils import timezone
from django.utils.text import slugify

from games.models import Game
from games.services.intake import submit_log
from games.services.table_desk import table_desk
from games.services.verification import verify_log
from players.models import Player
from tests.ratings_support import deep_vents_log
from tournaments.models import Registration, Round, Table, TableSeat, Tournament

PASSWORD = "a-long-sea-passphrase"


def player_with_login(name: str, email: str = "") -> Player:
    """A player whose name is claimed by a user of the same (slugified) username."""
    user = get_user_model().objects.create_user(slugify(name), email, PASSWORD)
    return Player.objects.create(handle=slugify(name), display_name=name, user=user)


def submitted_game(
    names: list[str],
    submitter=None,
    seed: int = 1,
    played_at: datetime.datetime | None = None,
    table=None,
) -> Game:
    """Submit and verify a Deep Vents game between these players (matched by handle)."""
    raw = json.dumps(deep_vents_log(names, seed, played_at or timezone.now()))
    if table is None:
        stored = submit_log(raw, user=submitter)
    else:
        stored = table_desk().attach(table.pk, raw, user=submitter, filename="")
    return Game.objects.get(pk=verify_log(stored.pk).game.pk)


def signed_in(client, user):
    """The test client signed in with the user's password (through django-axes)."""
    assert client.login(request=HttpRequest(), username=user.username, password=PASSWORD)
    return client


def running_table(players: list[Player], seed: int = 1) -> Table:
    """A running tournament's open table seating these players (entered in it) in order,
    its opening bidder the one of `submitted_game`'s log for the same seed (DV-3)."""
    names = [player.display_name for player in players]
    opener = deep_vents_log(names, seed, timezone.now())["setup"].get("opening_bidder")
    tournament = Tournament.objects.create(
        name="Club Night",
        slug="club-night",
        starts_on=datetime.date(2026, 6, 1),
        status=Tournament.Status.RUNNING,
    )
    round_ = Round.objects.create(tournament=tournament, number=1)
    table = Table.objects.create(round=round_, number=1)
    for seat, player in enumerate(players):
        Registration.objects.create(tournament=tournament, player=player)
        TableSeat.objects.create(
            table=table, seat=seat, player=player, opening_bidder=seat == opener
        )
    return table


def change_form(review, **fields: str) -> dict[str, str]:
    """The review page's form as a browser sends it: the note, the players' answers (shown
    read-only) and the button pressed."""
    answers = list(review.confirmations.order_by("pk"))
    data = {
        "note": "",
        "confirmations-TOTAL_FORMS": str(len(answers)),
        "confirmations-INITIAL_FORMS": str(len(answers)),
        "confirmations-MIN_NUM_FORMS": "0",
        "confirmations-MAX_NUM_FORMS": "1000",
        **fields,
    }
    for index, answer in enumerate(answers):
        data[f"confirmations-{index}-id"] = str(answer.pk)
        data[f"confirmations-{index}-review"] = str(review.pk)
    return data
