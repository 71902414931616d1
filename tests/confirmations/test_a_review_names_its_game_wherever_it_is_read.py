"""A review names its game in words wherever it is read (Review.__str__: staff's page
heading, a list's checkboxes, the admin's history), not only where the admin's list named it
first: read on its own it names its game in a few queries, once; a review not stored yet, or
whose game is gone, says so rather than fail; one moved to another log names that one; and
the admin's page confirming a deletion of the selected reviews, and the history it writes,
name their games in as many queries for 2 reviews as for 6."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.admin.models import DELETION, LogEntry
from django.db import connection
from django.test.utils import CaptureQueriesContext

from confirmations import services
from confirmations.models import Review
from tests.confirmation_support import player_with_login, submitted_game

pytestmark = pytest.mark.django_db
PLAYED = datetime.datetime(2026, 12, 3, 19, 30, tzinfo=datetime.UTC)
NAME = "review of Deep Vents, 3 Dec 2026: ann1, bea1, Guest (disputed)"


def disputed_games(count: int, first_seed: int = 1) -> list[Review]:
    ann, bea = player_with_login(f"Ann{first_seed}"), player_with_login(f"Bea{first_seed}")
    for seed in range(first_seed, first_seed + count):
        game = submitted_game([ann.handle, bea.handle, "Guest"], ann.user, seed, PLAYED)
        services.dispute(game.log_id, bea.user, 2, "that was my hex")
    return list(Review.objects.order_by("pk"))


def text(page: bytes) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.decode()))


def test_a_review_read_on_its_own_names_its_game_once(django_assert_max_num_queries):
    disputed_games(1)
    review = Review.objects.get()

    with django_assert_max_num_queries(3):
        assert str(review) == NAME
    with django_assert_max_num_queries(0):
        assert str(review) == NAME


def test_a_review_not_stored_yet_or_whose_game_is_gone_says_so():
    assert str(Review()) == "review of a game not stored yet (pending)"
    assert repr(Review(status=Review.Status.DISPUTED)).startswith("<Review: review of a game")
    review = disputed_games(1)[0]
    gone = Review(log_id=review.log_id + 1000, status=Review.Status.PENDING)

    assert str(gone) == "review of a deleted game (pending)"


def test_a_review_moved_to_another_log_names_that_log_not_the_name_it_was_given():
    disputed_games(1)
    first, second = disputed_games(1, first_seed=2)
    first.game_in_words = "Deep Vents, 3 Dec 2026: a name read before"
    second.game_in_words = None  # a list that found no name: it is read when asked

    assert str(first) == "review of Deep Vents, 3 Dec 2026: a name read before (disputed)"
    assert str(second) == "review of Deep Vents, 3 Dec 2026: ann2, bea2, Guest (disputed)"
    first.log_id = second.log_id
    assert str(first) == "review of Deep Vents, 3 Dec 2026: ann2, bea2, Guest (disputed)"


def delete_selected(client, reviews: list[Review], confirmed: bool) -> tuple[int, str]:
    """The page confirming the deletion (or, confirmed, the deletion) of these reviews: the
    queries naming games (of games.names) it made, and its text."""
    form = {"action": "delete_selected", "_selected_action": [r.pk for r in reviews]}
    if confirmed:
        form["post"] = "yes"
    with CaptureQueriesContext(connection) as queries:
        response = client.post("/admin/confirmations/review/", form)
    assert response.status_code in (200, 302)
    games = [q for q in queries if q["sql"].startswith('SELECT "games_game"."id"')]
    return len(games), text(response.content)


def test_deleting_selected_reviews_names_them_in_as_many_queries_for_two_as_for_six(
    admin_client,
):
    two_reviews = disputed_games(2)
    two, page = delete_selected(admin_client, two_reviews, confirmed=False)
    assert page.count("review of Deep Vents, 3 Dec 2026: ann1, bea1, Guest (disputed)") == 2
    six_reviews = two_reviews + disputed_games(4, first_seed=3)[2:]

    six, page = delete_selected(admin_client, six_reviews, confirmed=False)

    assert six == two
    assert page.count("review of Deep Vents, 3 Dec 2026: ") == 6


def test_the_history_of_a_deletion_names_each_review_in_as_many_queries_for_two_as_for_six(
    admin_client,
):
    two, _ = delete_selected(admin_client, disputed_games(2), confirmed=True)
    six, _ = delete_selected(admin_client, disputed_games(6, first_seed=3), confirmed=True)

    assert six == two
    history = LogEntry.objects.filter(action_flag=DELETION).values_list("object_repr", flat=True)
    assert len(history) == 8
    assert all(name.startswith("review of Deep Vents, 3 Dec 2026: ") for name in history)


def queries_of_delete_page(client, reviews: list[Review]) -> int:
    """All the queries of the page confirming the deletion of these reviews."""
    form = {"action": "delete_selected", "_selected_action": [r.pk for r in reviews]}
    with CaptureQueriesContext(connection) as queries:
        client.post("/admin/confirmations/review/", form)
    return len(queries)


def test_the_page_confirming_a_deletion_costs_as_many_queries_for_six_reviews_as_for_two(
    admin_client,
):
    two_reviews = disputed_games(2)
    two = queries_of_delete_page(admin_client, two_reviews)
    six = queries_of_delete_page(admin_client, two_reviews + disputed_games(4, first_seed=3)[2:])

    assert six == two
