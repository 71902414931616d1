"""Who may see and do what, page by page and endpoint by endpoint: one table of every
page and write endpoint against five people (anonymous, a player seated at the open table,
another player, an organiser of the tournament, staff). Each case starts from the same data
(made once, each case's writes rolled back after it), so a write's answer never depends on
another's. New pages join by adding a row to MATRIX."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client, TestCase
from games_support import human_log
from tables_support import Club, club

from games.models import GameLog
from games.services.intake import submit_log
from games.services.verification import verify_log

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("pages-permission-matrix")]

ROLES = ("anonymous", "seated player", "other player", "organiser", "staff")
SIGN_IN = 302  # pages send anonymous visitors to the login page
API_SIGN_IN = {401, 403}  # the API answers without redirecting
RECORDED_FIELDS = ("game", "ruleset", "players", "setup", "events")


@dataclass
class World:
    """The club, plus a verified game, the seated player's unpublished upload and a game
    staff uploaded that waits for the seated player's confirmation."""

    club: Club
    log: GameLog
    private_upload: int
    pending: GameLog

    def format(self, path: str) -> str:
        return path.format(
            table=self.club.table.pk,
            log=self.log.pk,
            upload=self.private_upload,
            pending=self.pending.pk,
        )


@pytest.fixture(scope="module")
def world(module_db) -> World:
    """Made once for the module: each case's writes are rolled back after it (module_db)."""
    with module_db():
        return make_world()


def make_world() -> World:
    the_club = club()
    with TestCase.captureOnCommitCallbacks(execute=True):
        public = submit_log(json.dumps(human_log(seed=1, names=("Pearl", "Squid"))), user=None)
        private = submit_log(
            json.dumps(human_log(seed=2, names=("Marina", "Yeti"))),
            user=the_club.users["seated player"],
            published=False,
        )
    pending = submit_log(
        json.dumps(human_log(seed=4, names=("Marina", "Guest"))), user=the_club.users["staff"]
    )
    for log in (public, pending):
        verify_log(log.pk)
    return World(the_club, GameLog.objects.get(pk=public.pk), private.upload_id, pending)


def marinas_game(world: World) -> str:
    """A game the seated player sits in (not the table's)."""
    return json.dumps(human_log(seed=30, names=("Marina", "Pearl")))


def table_game(world: World) -> str:
    return json.dumps(world.club.table_log())


def as_recording(raw: str, **extra: Any) -> str:
    log = json.loads(raw)
    return json.dumps({**{field: log[field] for field in RECORDED_FIELDS}, **extra})


def recording_start(world: World) -> str:
    return json.dumps({"game": "deep-dive", "players": [{"name": "A"}, {"name": "B"}]})


@dataclass
class Row:
    what: str
    method: str
    path: str
    expected: dict[str, int | set[int]]
    body: Callable[[World], Any] | None = None
    content_type: str = "application/json"
    stores: bool = False  # a write that stores a log when it is allowed

    def send(self, client: Client, world: World) -> Any:
        path = world.format(self.path)
        if self.method == "get":
            return client.get(path)
        if self.method == "delete":
            return client.delete(path)
        body = self.body(world) if self.body else None
        if isinstance(body, dict):
            return client.post(path, body)
        return client.post(path, body, content_type=self.content_type)


def everyone(status: int) -> dict[str, int]:
    return dict.fromkeys(ROLES, status)


def signed_in(status: int, anonymous: int | set[int] = SIGN_IN) -> dict[str, int | set[int]]:
    return {**everyone(status), "anonymous": anonymous}


def roles(anonymous, seated, other, organiser, staff) -> dict[str, int | set[int]]:
    return dict(zip(ROLES, (anonymous, seated, other, organiser, staff), strict=True))


MATRIX = [
    # --- pages anyone may read
    Row("home", "get", "/", everyone(200)),
    Row("tournament list", "get", "/tournaments/", everyone(200)),
    Row("tournament page", "get", "/tournaments/club-night/", everyone(200)),
    Row("seating sheet", "get", "/tournaments/club-night/round/1/", everyone(200)),
    Row("table page", "get", "/tournaments/club-night/round/1/table/1/", everyone(200)),
    Row("player page", "get", "/players/marina/", everyone(200)),
    Row("leaderboards", "get", "/leaderboards/", everyone(200)),
    Row("a leaderboard", "get", "/leaderboards/deep-dive/", everyone(200)),
    Row("backtest", "get", "/leaderboards/deep-dive/backtest/", everyone(200)),
    Row("games list", "get", "/games/", everyone(200)),
    Row("game page", "get", "/games/{log}/", everyone(200)),
    Row("statistics", "get", "/stats/", everyone(200)),
    Row("hex statistics", "get", "/stats/hexes/", everyone(200)),
    Row("strategy statistics", "get", "/stats/strategies/", everyone(200)),
    Row("API logs", "get", "/api/logs/", everyone(200)),
    Row("API uploads", "get", "/api/uploads/", everyone(200)),
    Row("API games", "get", "/api/games/", everyone(200)),
    Row("API log", "get", "/api/logs/{log}/", everyone(200)),
    Row("API schema", "get", "/api/schema/", everyone(200)),
    Row("API docs", "get", "/api/docs/", everyone(200)),
    # --- pages for the signed-in, for the owner, for staff
    Row("upload page", "get", "/upload/", signed_in(200)),
    Row("my uploads", "get", "/uploads/", signed_in(200)),
    Row("record page", "get", "/record/", signed_in(200)),
    Row("unpublished upload", "get", "/uploads/{upload}/", roles(404, 200, 404, 404, 200)),
    Row(
        "unpublished upload status",
        "get",
        "/uploads/{upload}/status/",
        roles(404, 200, 404, 404, 200),
    ),
    Row("simulation lab", "get", "/stats/lab/", roles(302, 302, 302, 302, 200)),
    Row("admin", "get", "/admin/", roles(302, 302, 302, 302, 200)),
    # --- writes: a game the seated player sits in
    Row(
        "API single log",
        "post",
        "/api/logs/",
        roles(API_SIGN_IN, 201, 403, 403, 201),
        marinas_game,
        stores=True,
    ),
    Row(
        "API batch (stored at once, read by a worker; a refused line is a line error)",
        "post",
        "/api/uploads/",
        roles(API_SIGN_IN, 202, 202, 202, 202),
        lambda world: marinas_game(world) + "\n",
        content_type="application/jsonl",
    ),
    Row(
        "upload page, single log",
        "post",
        "/upload/",
        roles(302, 302, 403, 403, 302),
        lambda world: {"log": marinas_game(world)},
        stores=True,
    ),
    Row(
        "record page save",
        "post",
        "/record/save/",
        roles(403, 201, 403, 403, 201),
        lambda world: as_recording(marinas_game(world)),
        stores=True,
    ),
    Row(
        "record page step",
        "post",
        "/record/step/",
        signed_in(200, 403),
        lambda world: as_recording(marinas_game(world)),
    ),
    Row("record page deal", "post", "/record/deal/", signed_in(200, 403), recording_start),
    # --- writes: the open table's result
    Row(
        "API log for the table",
        "post",
        "/api/logs/?table={table}",
        roles(API_SIGN_IN, 201, 403, 201, 201),
        table_game,
        stores=True,
    ),
    Row(
        "upload page for the table",
        "post",
        "/upload/",
        roles(302, 302, 403, 302, 302),
        lambda world: {"log": table_game(world), "table": world.club.table.pk},
        stores=True,
    ),
    Row(
        "record page for the table",
        "post",
        "/record/save/",
        roles(403, 201, 403, 201, 201),
        lambda world: as_recording(table_game(world), table=world.club.table.pk),
        stores=True,
    ),
    # --- accounts and confirmation: the game staff uploaded waits for the seated player
    Row("sign-up page", "get", "/account/signup/", roles(200, 302, 302, 302, 302)),
    Row("sign-in page", "get", "/account/login/", roles(200, 302, 302, 302, 302)),
    Row("password reset page", "get", "/account/password/reset/", everyone(200)),
    # The club's accounts have no password yet: allauth sends them to set one first.
    Row("password change page", "get", "/account/password/change/", signed_in(302)),
    Row("claim a player name", "get", "/account/player/", signed_in(200)),
    Row("games to confirm", "get", "/account/pending/", signed_in(200)),
    Row("pending game page", "get", "/games/{pending}/", everyone(200)),
    Row(
        "confirm a game",
        "post",
        "/account/games/{pending}/confirm/",
        roles(302, 302, 403, 403, 403),
        lambda world: {},
    ),
    Row(
        "dispute a game",
        "post",
        "/account/games/{pending}/dispute/",
        roles(302, 302, 403, 403, 403),
        lambda world: {"event": "1", "reason": "not what happened"},
    ),
    Row("API games to confirm", "get", "/api/confirmations/", signed_in(200, API_SIGN_IN)),
    Row(
        "API confirm a game",
        "post",
        "/api/confirmations/{pending}/confirm/",
        roles(API_SIGN_IN, 200, 403, 403, 403),
        lambda world: "{}",
    ),
    Row(
        "API dispute a game",
        "post",
        "/api/confirmations/{pending}/dispute/",
        roles(API_SIGN_IN, 200, 403, 403, 403),
        lambda world: json.dumps({"event": 1, "reason": "not what happened"}),
    ),
    Row("admin reviews", "get", "/admin/confirmations/review/", roles(302, 302, 302, 302, 200)),
    # --- staff only
    Row("API delete a log", "delete", "/api/logs/{log}/", roles(API_SIGN_IN, 403, 403, 403, 204)),
]

CASES = [pytest.param(row, role, id=f"{row.what} / {role}") for row in MATRIX for role in ROLES]


@pytest.mark.parametrize(("row", "role"), CASES)
def test_each_page_and_endpoint_answers_each_person_as_the_matrix_says(world, row, role):
    logs_before = GameLog.objects.count()

    response = row.send(world.club.client(role), world)

    expected = row.expected[role]
    assert response.status_code in (expected if isinstance(expected, set) else {expected})
    if row.stores:
        stored = GameLog.objects.count() - logs_before
        assert stored == (1 if response.status_code in (201, 302) and role != "anonymous" else 0)
    if response.status_code == 302 and role == "anonymous":
        assert "login" in response["Location"]
