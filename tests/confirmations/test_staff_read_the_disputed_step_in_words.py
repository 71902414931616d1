"""Staff's review of a dispute names the disputed step as the replay does: the engine's
words kept with the dispute, or else the replay's "step N of M", never "event N" (issue 24:
the site speaks in moves and names). Both the page's top and its answers' table (the
admin's own fallback) link the replay at that step."""

from __future__ import annotations

import re

import pytest

from confirmations import services
from confirmations.models import Confirmation, Review
from games import viewer
from tests.confirmation_support import submitted_game
from tests.notices_support import NAMES, cast

pytestmark = pytest.mark.django_db

WORDS = "turn 1, Ann Abyss: take Vampire Squid at position 1 (pay 0)"


def review_page(client, staff, log_id: int) -> str:
    client.force_login(staff)
    review = Review.objects.get(log_id=log_id)
    return client.get(f"/admin/confirmations/review/{review.pk}/change/").content.decode()


def moments(page: str) -> list[str]:
    """The texts of the page's links to the disputed step (its top and its answers' table)."""
    return re.findall(r'class="disputed-moment"[^>]*>(.*?)</a>', page, re.S)


def test_staff_read_the_disputed_step_in_the_engines_words_at_the_top_and_in_the_answers(
    client,
):
    people = cast()
    game = submitted_game(NAMES, people.ann.user, seed=1)
    services.dispute(game.log_id, people.bea.user, 4, "I took position 2")

    page = review_page(client, people.staff, game.log_id)

    assert moments(page) == [f"“{WORDS}”: open the replay there"] * 2
    assert f'href="/games/{game.log_id}/#event-4" class="disputed-moment"' in page
    assert not re.search(r"event \d", page)


def test_a_dispute_kept_without_words_is_named_by_the_replays_step_count(client):
    people = cast()
    game = submitted_game(NAMES, people.ann.user, seed=1)
    services.dispute(game.log_id, people.bea.user, 4, "I took position 2")
    Confirmation.objects.filter(answer="disputed").update(step="")
    events = viewer.count_events(game.log.raw)

    page = review_page(client, people.staff, game.log_id)

    assert moments(page) == [f"step 5 of {events}: open the replay there"] * 2
    assert not re.search(r"event \d", page)
