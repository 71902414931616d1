"""Who may see and do what in the inbox: every page and write against four people
(anonymous, the notice's owner, another player, staff). Nobody reads, opens or marks another's
notice, staff included (a 404, as if it did not exist); "mark all read" touches only one's
own. Each case runs on fresh data."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from notices.models import Kind, Notice
from notices.services import notify
from tests.confirmation_support import (
    signed_in,
)
from tests.notices_support import cast

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "owner", "other player", "staff")
SUBJECT = "You are seated at table 3 (Club Night, round 2)"


@dataclass
class World:
    users: dict[str, Any]
    notice: Notice


@pytest.fixture
def world() -> World:
    people = cast()
    notice = notify(people.bea.user, Kind.SEATED, SUBJECT, "with Ann", url="/tournaments/")
    users = {"owner": people.bea.user, "other player": people.cid.user, "staff": people.staff}
    return World(users, notice)


def client_as(role: str, world: World) -> Client:
    client = Client()
    if role == "staff":
        client.force_login(world.users["staff"])
    elif role != "anonymous":
        signed_in(client, world.users[role])
    return client


@dataclass
class Row:
    what: str
    method: str
    path: str
    expected: dict[str, int]
    body: dict[str, str] | None = None
    # Whether the owner's notice is read afterwards, by role (None: not checked).
    read_after: dict[str, bool] | None = None


def roles(anonymous: int, owner: int, other: int, staff: int) -> dict[str, int]:
    return dict(zip(ROLES, (anonymous, owner, other, staff), strict=True))


ONLY_THE_OWNER_READS = {"anonymous": False, "owner": True, "other player": False, "staff": False}
MATRIX = [
    Row("inbox", "get", "/account/notices/", roles(302, 200, 200, 200)),
    Row("preferences", "get", "/account/notices/preferences/", roles(302, 200, 200, 200)),
    Row(
        "preferences saved",
        "post",
        "/account/notices/preferences/",
        roles(302, 302, 302, 302),
        {kind.value: "off" for kind in Kind},
    ),
    Row(
        "open the owner's notice",
        "get",
        "/account/notices/{notice}/open/",
        roles(302, 302, 404, 404),
        read_after=ONLY_THE_OWNER_READS,
    ),
    Row(
        "mark the owner's notice read",
        "post",
        "/account/notices/{notice}/read/",
        roles(302, 302, 404, 404),
        read_after=ONLY_THE_OWNER_READS,
    ),
    Row(
        "mark all read",
        "post",
        "/account/notices/read-all/",
        roles(302, 302, 302, 302),
        read_after=ONLY_THE_OWNER_READS,
    ),
]
CASES = [(row, role) for row in MATRIX for role in ROLES]


@pytest.mark.parametrize(("row", "role"), CASES, ids=[f"{r.what}: {role}" for r, role in CASES])
def test_each_role_gets_what_the_matrix_says(world, row, role):
    client = client_as(role, world)
    path = row.path.format(notice=world.notice.pk)

    response = client.get(path) if row.method == "get" else client.post(path, row.body or {})

    assert response.status_code == row.expected[role], response.content[:300]
    if row.expected[role] == 302 and role == "anonymous":
        assert response["Location"].startswith("/account/login/")
    if row.read_after is not None:
        world.notice.refresh_from_db()
        assert world.notice.is_read is row.read_after[role]


@pytest.mark.parametrize("role", ["other player", "staff"])
def test_nobody_sees_anothers_notices_in_their_inbox_or_count(world, role):
    page = client_as(role, world).get("/").content.decode()
    inbox = client_as(role, world).get("/account/notices/").content.decode()

    assert SUBJECT not in inbox and 'id="no-notices"' in inbox
    assert 'id="notices-link">Inbox</a>' in page  # no count: nothing of theirs is unread


def test_the_owner_sees_the_notice_and_the_count_and_opening_it_goes_where_it_is_about(world):
    client = client_as("owner", world)

    page = client.get("/").content.decode()
    inbox = client.get("/account/notices/").content.decode()
    opened = client.get(f"/account/notices/{world.notice.pk}/open/")

    assert '<span class="count" aria-label="1 unread notice">1</span>' in page
    assert SUBJECT in inbox
    assert opened["Location"] == "/tournaments/"
    assert 'id="notices-link">Inbox</a>' in client.get("/").content.decode()


def test_a_preference_refused_keeps_the_choices_and_says_why_beside_the_field(world):
    client = client_as("owner", world)
    choices = {kind.value: "digest" for kind in Kind} | {"seated": "hourly"}

    response = client.post("/account/notices/preferences/", choices)
    page = response.content.decode()

    assert response.status_code == 400
    assert "Select a valid choice. hourly is not one of the available choices." in page
    kept = re.findall(r'<input type="radio" name="(\w+)" value="digest"[^>]* checked>', page)
    assert sorted(kept) == sorted(kind.value for kind in Kind if kind != Kind.SEATED)
    assert not get_user_model().objects.get(pk=world.users["owner"].pk).notice_preferences.exists()
