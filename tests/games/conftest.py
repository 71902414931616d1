"""Fixtures of the games tests: Django, services and the browser (django_fixtures.py)."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django_fixtures import *  # noqa: F403
from games_support import sitting_as

from games.services import verification
from players import services as players


@pytest.fixture
def scorekeeper(db) -> Any:
    keeper = get_user_model().objects.create_user("keeper")  # no password: hashing is slow
    return sitting_as(keeper, "Keeper")  # seat 0 of the games the record tests record


@pytest.fixture
def signed_in(client: Client, scorekeeper: Any) -> Client:
    client.force_login(scorekeeper)
    return client


@pytest.fixture
def creation_locks(monkeypatch) -> list[bool]:
    """Each time players.services.CREATION_LOCK is taken, whether it was by a creation
    apart from the storing transaction (verification.create_missing_players)."""
    creating = []
    create = verification.create_missing_players

    def creating_apart(names):
        creating.append(True)
        try:
            create(names)
        finally:
            creating.pop()

    taken = []
    hold_lock = players.hold_lock

    def spied_lock(key, shared=False):
        if key == players.CREATION_LOCK:
            taken.append(bool(creating))
        hold_lock(key, shared)

    monkeypatch.setattr(verification, "create_missing_players", creating_apart)
    monkeypatch.setattr(players, "hold_lock", spied_lock)
    return taken
