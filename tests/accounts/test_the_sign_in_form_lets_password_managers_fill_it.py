"""The sign-in form marks its fields as a password manager expects (autocomplete), so a
phone offers the saved username and password."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def input_named(page: str, name: str) -> str:
    match = re.search(rf'<input[^>]*name="{name}"[^>]*>', page)
    assert match, f"no input named {name}"
    return match.group(0)


def test_the_username_or_address_field_is_marked_as_the_username(client):
    page = client.get("/account/login/").content.decode()

    assert 'autocomplete="username"' in input_named(page, "login")


def test_the_password_field_is_marked_as_the_current_password(client):
    page = client.get("/account/login/").content.decode()

    assert 'autocomplete="current-password"' in input_named(page, "password")
