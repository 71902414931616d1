"""Who may claim, see claims and decide them: every claim page and endpoint against seven
people (anonymous, the account asking for Sam Smoker's name, another player, an organiser of
the tournament Sam played in, an organiser of another one, a staff member without the
"change claim request" permission, and staff with it). Each case starts from the same data
(made once, each case's writes rolled back after it), and a refused decision leaves the
request open and the name unclaimed."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from accounts.models import ClaimRequest
from tests.claims_support import ROLES, Club, club

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("claims-matrix")]
SIGN_IN = 302  # pages send anonymous visitors to the login page; so does the admin


@dataclass
class Row:
    what: str
    method: str
    path: str
    expected: tuple[int, ...]  # in ROLES' order
    decides: bool = False  # a write that decides the request when allowed


MATRIX = [
    Row("claim page", "get", "/account/player/", (SIGN_IN, 200, 200, 200, 200, 200, 200)),
    Row("approvers' page", "get", "/account/claims/", (SIGN_IN, 403, 403, 200, 200, 403, 200)),
    Row(
        "approve",
        "post",
        "/account/claims/{claim}/approve/",
        (403, 403, 403, 302, 403, 403, 302),
        decides=True,
    ),
    Row(
        "refuse",
        "post",
        "/account/claims/{claim}/refuse/",
        (403, 403, 403, 302, 403, 403, 302),
        decides=True,
    ),
    Row(
        "admin's list of requests",
        "get",
        "/admin/accounts/claimrequest/",
        (SIGN_IN, SIGN_IN, SIGN_IN, 200, 200, 403, 200),
    ),
    Row(
        "admin's page of the request",
        "get",
        "/admin/accounts/claimrequest/{claim}/change/",
        # Outside its queryset the admin says the request does not exist (a redirect).
        (SIGN_IN, SIGN_IN, SIGN_IN, 200, 302, 403, 200),
    ),
    Row("name page", "get", "/players/sam-smoker/", (200, 200, 200, 200, 200, 200, 200)),
]
CASES = [
    pytest.param(row, role, status, id=f"{row.what} / {role}")
    for row in MATRIX
    for role, status in zip(ROLES, row.expected, strict=True)
]


@pytest.fixture(scope="module")
def asked(module_db) -> tuple[Club, ClaimRequest]:
    """The club with the claimant's request made, once for the module (module_db)."""
    with module_db():
        world = club()
        return world, world.ask()


@pytest.mark.parametrize(("row", "role", "expected"), CASES)
def test_permission_matrix_for_claims(asked, row: Row, role: str, expected: int):
    world, claim = asked
    client = world.client(role)
    path = row.path.format(claim=claim.pk)

    response = client.get(path) if row.method == "get" else client.post(path)

    assert response.status_code == expected, response.content.decode()[:500]
    claim.refresh_from_db()
    world.sam.refresh_from_db()
    if row.decides and expected == 302:
        assert not claim.is_open
    else:
        assert claim.is_open and world.sam.user is None
        assert ClaimRequest.objects.filter(decided_at__isnull=True).count() == 1


def test_the_admin_page_of_a_request_outside_ones_tournaments_shows_nothing_of_it(asked):
    world, claim = asked

    response = world.client("other organiser").get(
        f"/admin/accounts/claimrequest/{claim.pk}/change/", follow=True
    )

    assert "Sam Smoker" not in response.content.decode()
