"""Anonymous users read; signed-in users upload; staff delete; unpublished uploads stay
their owner's; session writes need the CSRF token; uploads are throttled."""

import pytest
from django.test import Client
from games_support import human_log, sitting_as, submit, text

from games.models import Game, GameLog
from games.signals import game_retracted

pytestmark = pytest.mark.django_db
__all__ = ["submit"]


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


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

    assert signed_in(owner).get(url).status_code == 200
    assert signed_in(staff).get(url).status_code == 200
    assert signed_in(other).get(url).status_code == 404
    assert Client().get(url).status_code == 404
    assert Client().get("/api/games/").json()["count"] == 0
    assert signed_in(other).get(f"/uploads/{stored.upload_id}/status/").status_code == 404


def test_only_staff_delete_and_the_game_is_retracted_first(submit, django_user_model):
    stored = submit(text(human_log(seed=93)))
    retracted = []

    def receiver(game, **kwargs):
        retracted.append(game.log_id)

    user = django_user_model.objects.create_user("player")
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    assert signed_in(user).delete(f"/api/logs/{stored.pk}/").status_code == 403
    game_retracted.connect(receiver)
    try:
        assert signed_in(staff).delete(f"/api/logs/{stored.pk}/").status_code == 204
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
    client = signed_in(sitting_as(django_user_model.objects.create_user("eager")))
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
