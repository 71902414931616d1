"""A club for the claim tests: "Sam Smoker", a name with history (entered in Club Night,
one verified game), the people around it, and a newcomer who wants that name."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client

from accounts.models import ClaimRequest
from players.models import Player
from tests.confirmation_support import PASSWORD, player_with_login, submitted_game
from tournaments.models import Registration, Tournament

ROLES = (
    "anonymous",
    "claimant",
    "other player",
    "organiser",
    "other organiser",
    "staff without the permission",
    "staff",
)


@dataclass
class Club:
    sam: Player  # the name with history
    users: dict[str, Any]  # role -> user (None: anonymous)

    def client(self, role: str) -> Client:
        client = Client()
        if self.users[role] is not None:
            client.force_login(self.users[role])
        return client

    def ask(self) -> ClaimRequest:
        """The claimant asks for Sam Smoker's name, through the claim page."""
        response = self.client("claimant").post("/account/player/", {"name": "Sam Smoker"})
        assert response.status_code == 302, response.content.decode()
        return ClaimRequest.objects.get(user=self.users["claimant"])


def tournament(name: str, organiser: Any) -> Tournament:
    created = Tournament.objects.create(
        name=name, slug=name.lower().replace(" ", "-"), starts_on=datetime.date(2026, 6, 1)
    )
    created.organisers.add(organiser)
    return created


def club() -> Club:
    users = get_user_model().objects
    # Organisers are staff accounts (they run their tournaments in the admin): being staff
    # must not be what lets them decide claims.
    organiser = users.create_user("organiser", "", PASSWORD, is_staff=True)
    other_organiser = users.create_user("other-organiser", "", PASSWORD, is_staff=True)
    staff = users.create_user("referee", "", PASSWORD, is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="change_claimrequest"))
    sam = Player.objects.create(handle="sam-smoker", display_name="Sam Smoker")
    Registration.objects.create(tournament=tournament("Club Night", organiser), player=sam)
    tournament("Other Night", other_organiser)
    submitted_game(["Sam Smoker", "Guest"], seed=1)
    return Club(
        sam=sam,
        users={
            "anonymous": None,
            "claimant": users.create_user("newcomer", "", PASSWORD),
            "other player": player_with_login("Kelp").user,
            "organiser": organiser,
            "other organiser": other_organiser,
            "staff without the permission": users.create_user("clerk", "", PASSWORD, is_staff=True),
            "staff": staff,
        },
    )
