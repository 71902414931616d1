"""Accounts for everyone: sign up, sign in and out, passwords, in the site's own layout;
failed sign-ins throttled per account and per address (django-axes), admin login included;
one player name per user, claimed once."""

from __future__ import annotations

import re

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.core import mail

from players.models import Player
from tests.confirmation_support import (
    PASSWORD,
    player_with_login,
    signed_in,
)

pytestmark = pytest.mark.django_db
SITE_NAV = 'href="/leaderboards/"'


def sign_up(client, username: str, email: str = ""):
    return client.post(
        "/account/signup/",
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_account_pages_use_the_sites_layout_not_the_admins(client):
    for path in ("/account/signup/", "/account/login/", "/account/password/reset/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert SITE_NAV in response.content.decode(), path
        assert "Django administration" not in response.content.decode(), path


def test_a_visitor_signs_up_and_is_signed_in(client):
    response = sign_up(client, "marina", "marina@example.org")

    assert response.status_code == 302
    assert response["Location"] == "/account/player/"  # the name they play under comes first
    assert get_user_model().objects.get(username="marina").email == "marina@example.org"
    page = client.get("/").content.decode()
    assert "Signed in as <strong>marina</strong>" in page
    assert "Claim your player name" in page


def test_pages_for_players_send_visitors_to_the_sign_in_page(client):
    response = client.get("/account/pending/")

    assert response.status_code == 302
    assert response["Location"] == "/account/login/?next=/account/pending/"


def test_a_player_signs_in_with_their_username_or_address_and_out_again(client):
    get_user_model().objects.create_user("nemo", "nemo@example.org", PASSWORD)

    for login in ("nemo", "nemo@example.org"):
        response = client.post("/account/login/", {"login": login, "password": PASSWORD})
        assert response.status_code == 302, login
        assert "Signed in as" in client.get("/").content.decode()
        client.post("/account/logout/")
        assert "Sign in" in client.get("/").content.decode()


def test_a_forgotten_password_is_reset_through_a_mailed_link(client):
    get_user_model().objects.create_user("nemo", "nemo@example.org", "an-old-sea-passphrase")

    client.post("/account/password/reset/", {"email": "nemo@example.org"})
    link = re.search(r"http://testserver(/account/password/reset/key/\S+)", mail.outbox[0].body)
    form = client.get(link.group(1), follow=True)
    response = client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link.group(1),
        {"password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 302
    assert get_user_model().objects.get(username="nemo").check_password(PASSWORD)


def test_a_signed_in_player_changes_their_password(client):
    user = get_user_model().objects.create_user("nemo", "", "an-old-sea-passphrase")
    client.force_login(user)

    response = client.post(
        "/account/password/change/",
        {"oldpassword": "an-old-sea-passphrase", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_five_wrong_passwords_lock_the_account_even_with_the_right_one(client, settings):
    assert settings.AXES_FAILURE_LIMIT == 5
    get_user_model().objects.create_user("nemo", "", PASSWORD)
    for _ in range(5):
        client.post("/account/login/", {"login": "nemo", "password": "wrong"})

    response = client.post("/account/login/", {"login": "nemo", "password": PASSWORD})

    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_wrong_passwords_for_many_accounts_lock_the_address(client):
    get_user_model().objects.create_user("nemo", "", PASSWORD)
    for number in range(5):
        client.post("/account/login/", {"login": f"guess{number}", "password": "wrong"})

    response = client.post("/account/login/", {"login": "nemo", "password": PASSWORD})

    assert response.status_code == 429
    other_address = client.post(
        "/account/login/", {"login": "nemo", "password": PASSWORD}, REMOTE_ADDR="10.0.0.9"
    )
    assert other_address.status_code == 302  # nemo's account itself is not locked


def test_the_admin_login_is_throttled_too(client):
    get_user_model().objects.create_superuser("root", "", PASSWORD)
    for _ in range(5):
        client.post("/admin/login/", {"username": "root", "password": "wrong"})

    response = client.post("/admin/login/", {"username": "root", "password": PASSWORD})

    assert response.status_code == 429
    assert AccessAttempt.objects.filter(username="root").exists()


def test_a_user_claims_an_unclaimed_name(client):
    Player.objects.create(handle="marina-abyss", display_name="Marina Abyss")
    user = get_user_model().objects.create_user("marina", "", PASSWORD)
    client.force_login(user)

    response = client.post("/account/player/", {"name": "Marina Abyss"})

    assert response.status_code == 302
    assert Player.objects.get(handle="marina-abyss").user == user
    page = client.get("/").content.decode()
    assert 'href="/players/marina-abyss/"' in page


def test_a_user_creates_their_name_when_nobody_played_under_it(client):
    user = get_user_model().objects.create_user("newcomer", "", PASSWORD)
    client.force_login(user)

    client.post("/account/player/", {"name": "Deep Newcomer"})

    assert Player.objects.get(user=user).display_name == "Deep Newcomer"


def test_a_claimed_name_cannot_be_claimed_again(client):
    player_with_login("Marina Abyss")
    intruder = get_user_model().objects.create_user("intruder", "", PASSWORD)
    client.force_login(intruder)

    response = client.post("/account/player/", {"name": "Marina Abyss"})

    assert response.status_code == 400
    assert "is claimed by another account" in response.content.decode()
    assert Player.objects.get(handle="marina-abyss").user.username == "marina-abyss"


def test_a_user_has_one_player_name(client):
    marina = player_with_login("Marina")
    Player.objects.create(handle="nemo", display_name="Nemo")
    client.force_login(marina.user)

    response = client.post("/account/player/", {"name": "Nemo"})

    assert response.status_code == 400
    assert "you play as Marina (@marina) already" in response.content.decode()
    assert Player.objects.get(handle="nemo").user is None


def test_the_database_refuses_a_second_player_for_one_user():
    from django.db import IntegrityError, transaction

    marina = player_with_login("Marina")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(handle="other", display_name="Other", user=marina.user)


def test_the_nav_shows_who_you_are_and_what_waits_for_you(client):
    from tests.confirmation_support import submitted_game

    ann, bea = player_with_login("Ann"), player_with_login("Bea")
    submitted_game(["Ann", "Bea", "Guest"], ann.user)

    page = signed_in(client, bea.user).get("/").content.decode()

    assert "Signed in as <strong>bea</strong>" in page
    assert 'href="/players/bea/"' in page
    assert 'aria-label="1 games wait for you">1</span>' in page
    anonymous = client.__class__().get("/").content.decode()
    assert 'href="/account/login/' in anonymous and 'href="/account/signup/"' in anonymous
