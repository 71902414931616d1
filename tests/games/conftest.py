"""Fixtures of the games tests: Django, services and the browser (django_fixtures.py)."""

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django_fixtures import *  # noqa: F403
from games_support import sitting_as


@pytest.fixture
def scorekeeper(db) -> Any:
    keeper = get_user_model().objects.create_user("keeper")  # no password: hashing is slow
    return sitting_as(keeper, "Keeper")  # seat 0 of the games the record tests record


@pytest.fixture
def signed_in(client: Client, scorekeeper: Any) -> Client:
    client.force_login(scorekeeper)
    return client
