"""A dispute names the event the replay shows: the game page's dispute form sits under the
replay with no number to type (viewer.js fills it in), and staff's review links the disputed
moment so the replay opens there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from confirmations import services
from confirmations.models import Confirmation, Review
from tests.confirmation_support import (
    signed_in,
    submitted_game,
)
from tests.notices_support import NAMES, cast

pytestmark = pytest.mark.django_db


def test_the_asked_player_disputes_under_the_replay_without_typing_a_number(client):
    people = cast()
    game = submitted_game(NAMES, people.ann.user)

    page = signed_in(client, people.bea.user).get(f"/games/{game.log_id}/").content.decode()
    viewer = page[page.index('id="viewer"') :]

    assert 'id="replay-dispute"' in viewer
    assert '<input type="hidden" name="event" value="" data-replay-event>' in viewer
    assert 'type="number"' not in page


def test_before_the_replay_is_stepped_both_dispute_forms_read_as_sentences(client):
    people = cast()
    game = submitted_game(NAMES, people.ann.user)
    viewer_js = Path(__file__).parents[2] / "games" / "static" / "games" / "viewer.js"

    labelled = {
        (before.strip(), shown)
        for user in (people.ann.user, people.bea.user)
        for before, shown in re.findall(
            r"([\w ]+:)\s*<(?:span|strong) data-replay-event-label>([^<]+)<",
            signed_in(client, user).get(f"/games/{game.log_id}/").content.decode(),
        )
    }

    # The players at the table answer on Ann's page (she submitted it); Bea is asked.
    assert labelled == {
        ("Dispute the step shown:", "none yet, move the replay to the step that is wrong"),
        ("Step shown:", "none yet, move the replay to the step that is wrong"),
    }
    # The replay writes the same words when stepped back to the set-up.
    assert '"none yet, move the replay to the step that is wrong"' in viewer_js.read_text()


def test_a_player_not_asked_gets_no_dispute_form(client):
    people = cast()
    game = submitted_game(NAMES, people.ann.user)

    page = signed_in(client, people.ann.user).get(f"/games/{game.log_id}/").content.decode()

    assert 'id="replay-dispute"' not in page


def test_a_dispute_returns_to_the_replay_step_it_was_sent_from(client):
    people = cast()
    game = submitted_game(NAMES, people.ann.user)
    signed_in(client, people.bea.user)

    response = client.post(
        f"/account/games/{game.log_id}/dispute/",
        {"event": "6", "reason": "I bid 2", "next": f"/games/{game.log_id}/#event-6"},
    )

    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.log_id}/#event-6"


def test_the_games_answers_name_the_disputed_step_in_words_linking_its_moment(client):
    people = cast()
    game = submitted_game(NAMES, people.ann.user, seed=1)
    services.dispute(game.log_id, people.bea.user, 4, "I took position 2")

    page = signed_in(client, people.ann.user).get(f"/games/{game.log_id}/").content.decode()
    answer = re.search(r'<li data-player="bea-benthic">(.*?)</li>', page, re.S).group(1)

    assert (
        '<a href="#event-4">“turn 1, Ann Abyss: take Vampire Squid at position 1 (pay 0)”</a>: '
        "“I took position 2”"
    ) in answer
    assert "event 4" not in answer


def test_a_dispute_keeps_the_disputed_step_in_words_and_the_game_page_shows_what_it_kept(
    client,
):
    people = cast()
    game = submitted_game(NAMES, people.ann.user, seed=1)
    services.dispute(game.log_id, people.bea.user, 4, "I took position 2")
    dispute = Confirmation.objects.get(review__log_id=game.log_id, answer="disputed")
    assert dispute.step == "turn 1, Ann Abyss: take Vampire Squid at position 1 (pay 0)"

    Confirmation.objects.filter(pk=dispute.pk).update(step="the words kept with the dispute")
    page = signed_in(client, people.ann.user).get(f"/games/{game.log_id}/").content.decode()

    assert '<a href="#event-4">“the words kept with the dispute”</a>' in page


def test_a_dispute_sent_at_the_setup_asks_to_step_the_replay_and_stores_nothing(client):
    people = cast()
    game = submitted_game(NAMES, people.ann.user)
    signed_in(client, people.bea.user)

    response = client.post(
        f"/account/games/{game.log_id}/dispute/", {"event": "", "reason": "I bid 2"}
    )

    assert response.status_code == 400
    assert "event: step the replay to the event you contest" in response.content.decode()
    assert Review.objects.get(log_id=game.log_id).status == Review.Status.PENDING


def test_staffs_review_links_the_disputed_moment(client):
    people = cast()
    game = submitted_game(NAMES, people.ann.user)
    services.dispute(game.log_id, people.bea.user, 6, "I bid 2")
    review = Review.objects.get(log_id=game.log_id)
    client.force_login(people.staff)

    page = client.get(f"/admin/confirmations/review/{review.pk}/change/").content.decode()

    assert f'href="/games/{game.log_id}/#event-6" class="disputed-moment"' in page
    assert "Bea Benthic disputes" in page and "I bid 2" in page
