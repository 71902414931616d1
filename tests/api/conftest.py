"""Fixtures of the api tests: Django, services and the browser (django_fixtures.py)."""

import pytest
from django.test import Client
from django_fixtures import *  # noqa: F403


@pytest.fixture
def staff_client(django_user_model) -> Client:
    """Signed in as staff: the logs seat players the uploader does not play
    (games.services.submission_rights)."""
    client = Client()
    client.force_login(django_user_model.objects.create_user("uploader", is_staff=True))
    return client
