"""Anonymous users read; signed-in users upload; staff delete; unpublished uploads stay
their owner's; session writes need the CSRF token; uploads are throttled."""

import pytest
from django.test import Client
from django_fixtures import signed_in_as
from games_support import human_log, sitting_as, submit, text

from games.models import Game, GameLog
from games.signals import game_retracted

pytestmark = pytest.mark.django_db
__all__ = ["submit"]


def test_anonymous_users_read_but_cannot_upload(submit):
    stored = submit(text(human_log(seed=90)))
    client = Client()

    assert client.get(f"/api/logs/{stored.pk}/").status_code == 200
    assert client.get("/api/games/").status_code == 200
    response = client.post(
        "/api/logs/", data=text(human_log(seed=91)), content_type="application/json"
    )
    assert response.status_code in (401, 403)
    assert GameLog.objects.count() == 1
    assert client.get("/upload/").status_code == 302  # to the login page


def test_an_unpublished_upload_is_seen_only_by_its_owner_and_staff(submit, django_user_model):
    owner = sitting_as(django_user_model.objects.create_user("owner"))
    other = django_user_model.objects.create_user("other")
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    stored = submit(text(human_log(seed=92)), user=owner, published=False)
    url = f"/api/logs/{stored.pk}/"

    assert signed_in_as(owner).get(url).status_code == 200
    assert signed_in_as(staff).get(url).status_code == 200
    assert signed_in_as(other).get(url).status_code == 404
    assert Client().get(url).status_code == 404
    assert Client().get("/api/games/").json()["results"] == []
    assert signed_in_as(other).get(f"/uploads/{stored.upload_id}/status/").status_code == 404


# Every page and API call that shows a log, its upload or its game, by the stored log.
WHERE_A_LOG_SHOWS = {
    "log in the API": lambda log: f"/api/logs/{log.pk}/",
    "upload in the API": lambda log: f"/api/uploads/{log.upload_id}/",
    "game in the API": lambda log: f"/api/games/{log.game.pk}/",
    "game page": lambda log: f"/games/{log.pk}/",
    "upload page": lambda log: f"/uploads/{log.upload_id}/",
    "upload status": lambda log: f"/uploads/{log.upload_id}/status/",
}
WHERE_LOGS_ARE_LISTED = ["/api/logs/", "/api/uploads/", "/api/games/", "/games/"]


@pytest.mark.parametrize("place", list(WHERE_A_LOG_SHOWS))
def test_every_page_shows_an_unpublished_log_to_its_owner_and_staff_only(
    submit, django_user_model, place
):
    owner = sitting_as(django_user_model.objects.create_user("owner"))
    other = django_user_model.objects.create_user("other")
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    stored = submit(text(human_log(seed=93)), user=owner, published=False)
    url = WHERE_A_LOG_SHOWS[place](stored)

    seen = {
        who: client.get(url).status_code
        for who, client in [
            ("owner", signed_in_as(owner)),
            ("staff", signed_in_as(staff)),
            ("other", signed_in_as(other)),
            ("anonymous", Client()),
        ]
    }

    assert seen == {"owner": 200, "staff": 200, "other": 404, "anonymous": 404}


@pytest.mark.parametrize("url", WHERE_LOGS_ARE_LISTED)
def test_every_list_leaves_out_the_unpublished_logs_of_others(submit, django_user_model, url):
    owner = sitting_as(django_user_model.objects.create_user("owner"))
    other = sitting_as(django_user_model.objects.create_user("other"), "Coral")
    published = submit(text(human_log(seed=94)), user=other)
    # Coral is not at the hidden table, so it asks nothing of `other` (who would then see it).
    hidden = submit(text(human_log(seed=95, names=("Nemo", "Kelp"))), user=owner, published=False)
    ids = {
        "/api/logs/": lambda log: log.pk,
        "/api/uploads/": lambda log: log.upload_id,
        "/api/games/": lambda log: log.game.pk,
    }

    def listed(client) -> set:
        response = client.get(url)
        if url == "/games/":  # the page links each game to /games/<log id>/
            page = response.content.decode()
            return {log.pk for log in (published, hidden) if f'href="/games/{log.pk}/"' in page}
        return {row["id"] for row in response.json()["results"]}

    key = ids.get(url, lambda log: log.pk)
    assert listed(Client()) == {key(published)}
    assert listed(signed_in_as(other)) == {key(published)}
    assert listed(signed_in_as(owner)) == {key(published), key(hidden)}


def test_only_staff_delete_and_the_game_is_retracted_first(submit, django_user_model):
    stored = submit(text(human_log(seed=93)))
    retracted = []

    def receiver(game, **kwargs):
        retracted.append(game.log_id)

    user = django_user_model.objects.create_user("player")
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    assert signed_in_as(user).delete(f"/api/logs/{stored.pk}/").status_code == 403
    game_retracted.connect(receiver)
    try:
        assert signed_in_as(staff).delete(f"/api/logs/{stored.pk}/").status_code == 204
    finally:
        game_retracted.disconnect(receiver)
    assert retracted == [stored.pk]
    assert not GameLog.objects.exists() and not Game.objects.exists()


def test_session_writes_without_the_csrf_token_are_refused(django_user_model):
    client = Client(enforce_csrf_checks=True)
    client.force_login(django_user_model.objects.create_user("csrf"))

    response = client.post(
        "/api/logs/", data=text(human_log(seed=94)), content_type="application/json"
    )

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert not GameLog.objects.exists()


def test_uploads_beyond_the_rate_are_throttled(django_user_model, monkeypatch):
    from django.core.cache import cache

    from games.permissions import UploadThrottle

    monkeypatch.setattr(UploadThrottle, "THROTTLE_RATES", {"uploads": "2/hour"})
    cache.clear()
    client = signed_in_as(sitting_as(django_user_model.objects.create_user("eager")))
    try:
        codes = [
            client.post(
                "/api/logs/", data=text(human_log(seed=s)), content_type="application/json"
            ).status_code
            for s in (95, 96, 97)
        ]
    finally:
        cache.clear()

    assert codes == [201, 201, 429]
    assert GameLog.objects.count() == 2
