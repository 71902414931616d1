"""Staff's admin lists name a game as its players know it ("Deep Vents, 3 Dec 2026: ann1,
bea1, Guest", the names its log gives), never "deep-vents log 107 (verified)": the reviews,
their pages and what Accept and Reject say, and the verdict changes; the names of a page
cost the same few queries for 2 rows or 6 (games.admin_columns.GameNamedInWords)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from confirmations import services
from confirmations.models import Review
from games.models import VerdictChange
from tests.confirmation_support import change_form, player_with_login, submitted_game

pytestmark = pytest.mark.django_db
PLAYED = datetime.datetime(2026, 12, 3, 19, 30, tzinfo=datetime.UTC)


def disputed_games(count: int, first_seed: int = 1) -> list[Review]:
    ann, bea = player_with_login(f"Ann{first_seed}"), player_with_login(f"Bea{first_seed}")
    reviews = []
    for seed in range(first_seed, first_seed + count):
        names = [ann.handle, bea.handle, "Guest"]
        game = submitted_game(names, ann.user, seed=seed, played_at=PLAYED)
        services.dispute(game.log_id, bea.user, 2, "that was my hex")
        reviews.append(Review.objects.get(log=game.log))
    return reviews


def text(page: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.decode()))


def test_the_reviews_list_names_each_game_by_its_day_and_players(staff_client):
    review = disputed_games(1)[0]

    page = staff_client.get("/admin/confirmations/review/").content

    assert "Deep Vents, 3 Dec 2026: ann1, bea1, Guest" in text(page)
    assert f"log {review.log_id}" not in text(page)
    assert f'href="/games/{review.log_id}/"' in page.decode()


def test_a_review_page_and_its_accept_message_name_the_game(staff_client):
    review = disputed_games(1)[0]
    url = f"/admin/confirmations/review/{review.pk}/change/"

    page = text(staff_client.get(url).content)
    assert "review of Deep Vents, 3 Dec 2026: ann1, bea1, Guest (disputed)" in page
    assert f"log {review.log_id}" not in page
    form = change_form(review, _accept="Accept")
    followed = staff_client.post(url, form, follow=True)

    assert "Deep Vents, 3 Dec 2026: ann1, bea1, Guest: accepted." in text(followed.content)


def test_the_verdict_changes_list_names_the_game(admin_client):
    review = disputed_games(1)[0]
    VerdictChange.objects.create(log_id=review.log_id, old_status="verified", new_status="rejected")

    page = admin_client.get("/admin/games/verdictchange/").content

    assert "Deep Vents, 3 Dec 2026: ann1, bea1, Guest" in text(page)


def queries_for_the_reviews_list(client) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/admin/confirmations/review/").status_code == 200
    return len(queries)


def test_naming_the_games_costs_the_same_queries_for_two_reviews_or_six(staff_client):
    disputed_games(2)
    two = queries_for_the_reviews_list(staff_client)
    disputed_games(4, first_seed=3)

    assert queries_for_the_reviews_list(staff_client) == two
