"""The header (issue 27): "Admin" for staff only, who is signed in in one small menu, the
messages once, the admin named as the site, and a favicon where a page links none."""

import pytest
from django.contrib.auth import get_user_model

from players.models import Player

ADMIN_LINK = '<a href="/admin/">Admin</a>'


@pytest.mark.django_db
def test_a_visitor_and_a_player_see_no_admin_link_and_staff_do(client):
    assert ADMIN_LINK not in client.get("/").content.decode()

    player = get_user_model().objects.create_user("marina", password="pw-for-tests-only")
    client.force_login(player)
    assert ADMIN_LINK not in client.get("/").content.decode()

    staff = get_user_model().objects.create_user("desk", password="pw", is_staff=True)
    client.force_login(staff)
    assert ADMIN_LINK in client.get("/").content.decode()


@pytest.mark.django_db
def test_a_signed_in_player_finds_their_page_and_password_in_the_account_menu(client):
    user = get_user_model().objects.create_user("marina", password="pw-for-tests-only")
    Player.objects.create(handle="marina", display_name="Marina Abyss", user=user)
    client.force_login(user)

    page = client.get("/").content.decode()
    menu = page[page.index('<details class="dropdown account-menu">') :]
    menu = menu[: menu.index("</details>")]

    assert "Signed in as <strong>marina</strong>" in menu
    assert '<a href="/players/marina/">Marina Abyss</a>' in menu
    assert 'href="/account/password/change/"' in menu


@pytest.mark.django_db
def test_a_message_is_shown_once(client):
    user = get_user_model().objects.create_user("marina", password="pw-for-tests-only")
    client.force_login(user)

    response = client.post("/account/logout/", follow=True)

    assert response.content.decode().count("You have signed out.") == 1


@pytest.mark.django_db
def test_the_admin_is_named_as_the_site(client):
    staff = get_user_model().objects.create_user("desk", password="pw", is_staff=True)
    client.force_login(staff)

    page = client.get("/admin/").content.decode()

    assert "Deep-sea tournaments" in page
    assert "Django administration" not in page


@pytest.mark.django_db
def test_a_browser_asking_for_favicon_ico_gets_the_site_icon(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 302
    assert response["Location"] == "/static/favicon.svg"
    assert client.get(response["Location"]).status_code == 200
