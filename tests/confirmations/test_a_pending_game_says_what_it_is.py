"""A pending game is shown to the players asked (pending page, inbox, e-mail) with what they
need to recognise it: the game in words, the date, the tournament round and table, each
seat's name and score, the result, who submitted it and the time left before silence counts
as consent. Scores and winners are checked against the engine's own replay of the log."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from confirmations import services as confirmations
from confirmations.models import Review
from engines.core.replay import verify
from games.models import GameLog
from notices.models import Kind, Notice
from tests.confirmation_support import (
    running_table,
    signed_in,
    submitted_game,
)
from tests.notices_support import NAMES, cast, inbox_of, mails_to, prefer

pytestmark = pytest.mark.django_db
PLAYED = datetime.datetime(2026, 11, 28, 19, 30, tzinfo=datetime.UTC)
NAMED = "Deep Vents, 28 Nov 2026: Club Night · round 1 · table 1"


@pytest.fixture
def at_a_table(django_capture_on_commit_callbacks):
    """Ann's upload of a Club Night table's game with Bea and Cid, and the engine's outcome."""
    people = cast()
    table = running_table([people.ann, people.bea, people.cid], seed=1)
    with django_capture_on_commit_callbacks(execute=True):
        game = submitted_game(NAMES, people.ann.user, seed=1, played_at=PLAYED, table=table)
    outcome = verify(json.loads(GameLog.objects.get(pk=game.log_id).raw))
    return people, game, outcome


def expected_lines(outcome) -> list[str]:
    return [f"{NAMES[seat]}, {score:g} points" for seat, score in enumerate(outcome.scores)]


def winner_line(outcome) -> str:
    [winner] = outcome.winners  # seed 1 has one winner
    return f"{NAMES[winner]} won with {outcome.scores[winner]:g}"


def test_the_pending_page_shows_seats_scores_result_submitter_table_and_time_left(
    client, at_a_table
):
    people, game, outcome = at_a_table
    deadline = Review.objects.get(log_id=game.log_id).deadline
    hours = int((deadline - timezone.now()).total_seconds() // 3600)

    page = signed_in(client, people.bea.user).get("/account/pending/").content.decode()
    card = page[page.index(f'data-log="{game.log_id}"') :]
    names = re.findall(r"<tr(?: class=\"winner\")?><td>([^<]+)", card)
    scores = re.findall(r"</td><td>([-\d.]+)</td><td>(\d+)</td></tr>", card)

    assert f'<a href="/games/{game.log_id}/#viewer">{NAMED}</a>' in card
    assert f"log {game.log_id}" not in card[: card.index("</article>")]
    assert "played 2026-11-28 19:30" in card
    assert '<span class="pending-where">Club Night · round 1 · table 1</span>' in card
    assert [name.strip() for name in names] == NAMES  # by name, no 0-based seat number
    assert [float(score) for score, _ in scores] == list(outcome.scores)
    assert [int(rank) for _, rank in scores] == list(outcome.ranks)
    assert f"Result: {winner_line(outcome)}." in card
    assert 'Submitted by <span class="pending-submitter">Ann Abyss</span>' in card
    assert f'<span class="time-left">{hours} h left</span>' in card and hours == 47


def test_the_notice_and_its_email_say_the_same(at_a_table, mailoutbox):
    people, game, outcome = at_a_table

    [notice] = inbox_of(people.bea.user, Kind.CONFIRM)
    [message] = mails_to(people.bea.user)

    assert notice.subject == message.subject
    assert notice.subject == f"Confirm {NAMED}"
    assert f"\n{NAMED}, played 2026-11-28 19:30 UTC.\n" in message.body
    assert f"log {game.log_id}" not in notice.body + message.body
    for line in [*expected_lines(outcome), winner_line(outcome), "Submitted by Ann Abyss"]:
        assert line in notice.body and line in message.body, line
    assert "(47 h left)" in message.body
    assert notice.due_at == Review.objects.get(log_id=game.log_id).deadline


def test_the_inbox_counts_down_the_time_left(client, at_a_table):
    people, _, _ = at_a_table
    Notice.objects.filter(user=people.bea.user).update(
        due_at=timezone.now() + datetime.timedelta(hours=5, minutes=30)
    )

    page = signed_in(client, people.bea.user).get("/account/notices/").content.decode()

    assert '<span class="time-left">5 h left</span>' in page


def test_the_api_lists_the_same_description(at_a_table):
    people, _, outcome = at_a_table
    api = APIClient()
    api.force_authenticate(people.bea.user)

    [listed] = api.get("/api/confirmations/").json()["results"]
    described = listed["game"]

    assert described["title"] == "Deep Vents"
    assert described["where"] == "Club Night · round 1 · table 1"  # as TablePlace words it
    assert [seat["name"] for seat in described["seats"]] == NAMES
    assert [seat["score"] for seat in described["seats"]] == list(outcome.scores)
    assert [seat["rank"] for seat in described["seats"]] == list(outcome.ranks)
    assert described["result"] == winner_line(outcome)
    assert described["submitter"] == "Ann Abyss"
    assert described["time_left"] == "47 h left"


def test_an_answered_game_is_listed_in_words_with_its_result_not_as_a_log_id(client, at_a_table):
    people, game, outcome = at_a_table
    signed_in(client, people.bea.user).post(f"/account/games/{game.log_id}/confirm/")

    page = client.get("/account/pending/").content.decode()
    answers = page[page.index("<h2>Your answers</h2>") :]

    assert f'<a href="/games/{game.log_id}/">{NAMED}</a>' in answers
    assert f"{winner_line(outcome)}: you confirmed" in answers
    assert f"log {game.log_id}" not in answers


def test_a_disputed_answer_is_listed_with_its_step_in_words_not_an_event_number(client, at_a_table):
    people, game, _ = at_a_table
    confirmations.dispute(game.log_id, people.bea.user, 4, "I took position 2")

    page = signed_in(client, people.bea.user).get("/account/pending/").content.decode()
    answers = page[page.index("<h2>Your answers</h2>") :]

    assert (
        f'you disputed it (<a href="/games/{game.log_id}/#event-4">“turn 1, Ann Abyss: take '
        "Vampire Squid at position 1 (pay 0)”</a>)"
    ) in answers
    assert "(event" not in answers


def test_a_dispute_notice_names_the_game_and_the_disputed_step_in_words(
    at_a_table, mailoutbox, django_capture_on_commit_callbacks
):
    people, game, _ = at_a_table
    prefer([people.ann.user], "immediately")
    with django_capture_on_commit_callbacks(execute=True):
        confirmations.dispute(game.log_id, people.bea.user, 4, "I took position 2")

    [notice] = inbox_of(people.ann.user, Kind.DISPUTE)
    [message] = [m for m in mails_to(people.ann.user) if "disputes" in m.subject]

    assert (
        notice.subject
        == message.subject
        == (
            "Bea Benthic disputes “turn 1, Ann Abyss: take Vampire Squid at position 1 (pay 0)” "
            f"in {NAMED}"
        )
    )
    assert notice.body.startswith(
        "Bea Benthic disputes “turn 1, Ann Abyss: take Vampire Squid at position 1 (pay 0)”: "
        "“I took position 2”."
    )
    assert not re.search(r"\bevent\b|\bseat\b", notice.subject + notice.body)


@pytest.mark.parametrize(
    ("path", "said"),
    [
        ("confirm/", "Bea Benthic confirmed"),
        ("dispute/", "Bea Benthic disputed"),
    ],
)
def test_an_answer_is_acknowledged_naming_the_game_in_words_not_its_log_id(
    client, at_a_table, path, said
):
    people, game, _ = at_a_table
    answer = {"event": "4", "reason": "I took position 2"}

    page = signed_in(client, people.bea.user).post(
        f"/account/games/{game.log_id}/{path}", answer, follow=True
    )
    [message] = [str(m) for m in page.context["messages"]]

    assert message.startswith(f"{said} {NAMED}")
    assert f"log {game.log_id}" not in message
