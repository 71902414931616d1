"""Lists of players sort names as people expect, accents and case aside (players.names.
sort_key): "Émile" among the E's, not after "Zoë" as code points and the database's C
collation put it, and "emma" beside them, not after every capital. The desk's players, the
registered players before round 1, and the known players a pasted name may be."""

from __future__ import annotations

import re

import pytest
from tournament_day_support import tournament_day

from players.models import Player
from players.names import sort_key
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

NAMES = ["Zoë", "Émile", "emma", "Ana"]
# As a reader sorts them: A, E (É, then m after i), Z.
EXPECTED = ["Ana", "Émile", "emma", "Zoë"]


@pytest.fixture
def registered():
    """A tournament with the four names registered, none seated yet."""
    day = tournament_day(NAMES)
    for name in NAMES:
        Registration.objects.create(tournament=day.tournament, player=day.player(name))
    day.handles = {day.player(name).handle: name for name in NAMES}
    return day


def names_in_order(page: str, pattern: str, handles: dict[str, str]) -> list[str]:
    return [handles[handle] for handle in re.findall(pattern, page) if handle in handles]


def test_the_sort_key_puts_accented_names_with_their_letters_whatever_the_case():
    assert sorted(NAMES, key=sort_key) == EXPECTED
    assert sorted(NAMES) != EXPECTED  # code point order, which this corrects


def test_the_desk_lists_its_players_by_name_as_people_read_them(registered):
    page = registered.client(registered.organiser).get(registered.url("desk/")).content.decode()
    players = page[page.index('id="players"') :]

    assert names_in_order(players, r'<tr data-handle="([^"]+)">', registered.handles) == EXPECTED


def test_the_registered_players_are_listed_by_name_as_people_read_them(registered):
    page = registered.client(None).get(registered.url()).content.decode()
    listed = page[page.index('id="registered-players"') :]

    assert names_in_order(listed, r'<li data-handle="([^"]+)"', registered.handles) == EXPECTED


def test_the_known_players_a_pasted_name_may_be_are_offered_by_name(registered):
    for handle, name in [
        ("zemile", "Zémile Reef"),
        ("emile", "Émile Reef"),
        ("amile", "amile reef"),
    ]:
        Player.objects.create(handle=handle, display_name=name)

    response = registered.client(registered.organiser).post(
        registered.url("desk/register/"), {"names": "Emile Reef"}
    )

    assert response.status_code == 400  # the name is asked about
    offered = re.findall(r"\(@(\w+)\), known already", response.content.decode())
    assert offered == ["amile", "emile", "zemile"]
