"""Helpers for the notices tests: a cast with logins and addresses, their preferences, and
what reached whom (inbox and mail outbox)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core import mail

from notices.models import Kind, Notice
from notices.services import set_preferences
from players.models import Player
from tests.confirmation_support import player_with_login

NAMES = ["Ann Abyss", "Bea Benthic", "Cid Cephalopod"]


@dataclass
class Cast:
    """Ann submits, Bea and Cid are asked; staff is a superuser, the moderator who decides."""

    ann: Player
    bea: Player
    cid: Player
    staff: Any

    def everyone(self) -> list[Any]:
        return [self.ann.user, self.bea.user, self.cid.user, self.staff]


def cast() -> Cast:
    ann, bea, cid = (
        player_with_login(name, f"{name.split()[0].lower()}@example.org") for name in NAMES
    )
    staff = get_user_model().objects.create_superuser("staff", "staff@example.org", "x")
    return Cast(ann, bea, cid, staff)


def prefer(users: list[Any], delivery: str) -> None:
    """Every kind of notice reaches these users this way."""
    for user in users:
        set_preferences(user, {kind.value: delivery for kind in Kind})


def inbox_of(user: Any, kind: str | None = None) -> list[Notice]:
    notices = Notice.objects.filter(user=user)
    return list(notices.filter(kind=kind) if kind else notices)


def mails_to(user: Any) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if message.to == [user.email]]
