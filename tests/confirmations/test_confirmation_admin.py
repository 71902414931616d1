"""Staff resolve disputed games in the admin: Accept and Reject buttons on a review's page,
and the same as actions on the list; any staff member may, without model permissions."""

from __future__ import annotations

import pytest

from confirmations import services
from confirmations.models import Review
from games.models import Game
from tests.confirmation_support import (
    change_form,
    player_with_login,
    submitted_game,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def disputed():
    ann, bea = player_with_login("Ann"), player_with_login("Bea")
    game = submitted_game(["Ann", "Bea", "Guest"], ann.user)
    services.dispute(game.log_id, bea.user, 2, "that was my hex")
    return Review.objects.get(log=game.log)


def test_the_review_page_shows_the_dispute_and_accepting_makes_the_game_count(
    staff_client, disputed
):
    url = f"/admin/confirmations/review/{disputed.pk}/change/"
    page = staff_client.get(url).content.decode()

    response = staff_client.post(
        url, change_form(disputed, note="checked the table photo", _accept="1")
    )

    assert "that was my hex" in page and 'name="_accept"' in page
    assert response.status_code == 302
    disputed.refresh_from_db()
    assert (disputed.status, disputed.counted_because) == ("counted", "accepted")
    assert disputed.note == "checked the table photo"
    assert Game.objects.get(log_id=disputed.log_id).counts


def test_rejecting_from_the_list_keeps_the_game_out(staff_client, disputed):
    staff_client.post(
        "/admin/confirmations/review/",
        {"action": "reject_games", "_selected_action": [disputed.pk]},
    )

    disputed.refresh_from_db()
    assert disputed.status == "rejected"
    assert not Game.objects.get(log_id=disputed.log_id).counts


def test_a_game_that_counts_cannot_be_rejected_from_the_admin(staff_client, disputed):
    services.accept(disputed.pk, None)

    response = staff_client.post(
        f"/admin/confirmations/review/{disputed.pk}/change/", change_form(disputed, _reject="1")
    )

    assert response.status_code == 302
    disputed.refresh_from_db()
    assert disputed.status == "counted"
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("counts already" in m for m in messages)
