"""Every kind of notice, sent by the feature that owns it, reaches its recipient's inbox
and, per their preference, the mail outbox: at once, in the daily digest, or not at all."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from types import SimpleNamespace
from typing import Any

import pytest
from django.urls import reverse
from games_support import simulated_log

from analysis.services import jobs
from confirmations import services as confirmations
from engines.analysis import Budget
from engines.core.log import dumps
from games.models import GameLog
from games.services.intake import submit_log
from games.services.verification import verify_log
from notices.models import Kind
from notices.services import notify_round_seated, send_digests
from players.signals import claim_decided, claim_requested
from tests.confirmation_support import (
    running_table,
    submitted_game,
)
from tests.notices_support import NAMES, Cast, cast, inbox_of, mails_to, prefer
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

TINY = Budget(target_se=0.2, min_playouts=4, max_playouts=8, batch=4)


def game_to_confirm(people: Cast) -> tuple[Any, str]:
    game = submitted_game(NAMES, people.ann.user)
    return people.bea.user, f"/games/{game.log_id}/#confirmation"


def dispute_opened(people: Cast) -> tuple[Any, str]:
    game = submitted_game(NAMES, people.ann.user)
    confirmations.dispute(game.log_id, people.bea.user, 4, "I passed there")
    return people.ann.user, f"/games/{game.log_id}/#event-4"


def dispute_opened_for_staff(people: Cast) -> tuple[Any, str]:
    game = submitted_game(NAMES, people.ann.user)
    confirmations.dispute(game.log_id, people.bea.user, 4, "I passed there")
    review = GameLog.objects.get(pk=game.log_id).review
    return people.staff, reverse("admin:confirmations_review_change", args=[review.pk])


def dispute_decided(people: Cast) -> tuple[Any, str]:
    game = submitted_game(NAMES, people.ann.user)
    confirmations.dispute(game.log_id, people.bea.user, 4, "I passed there")
    confirmations.accept(GameLog.objects.get(pk=game.log_id).review.pk, people.staff)
    return people.bea.user, f"/games/{game.log_id}/#confirmation"


def a_claim(people: Cast) -> SimpleNamespace:
    """A claim request as the claims app sends it: the asking account and the name."""
    cid = people.cid.user
    return SimpleNamespace(pk=1, user=cid, player=people.ann, user_id=cid.pk)


def claim_to_decide(people: Cast) -> tuple[Any, str]:
    claim_requested.send(sender=None, claim=a_claim(people))
    return people.staff, people.ann.get_absolute_url()


def claim_approved(people: Cast) -> tuple[Any, str]:
    claim_decided.send(sender=None, claim=a_claim(people), approved=True, decided_by=people.staff)
    return people.cid.user, reverse("accounts:player")


def seated(people: Cast) -> tuple[Any, str]:
    table = running_table([people.ann, people.bea, people.cid])
    notify_round_seated(table.round)
    return people.bea.user, table.get_absolute_url()


def analysis_finished(people: Cast) -> tuple[Any, str]:
    """A short Deep Sea Adventure game of theirs (a quick analysis), uploaded by Ann."""
    log = simulated_log("deep-sea-adventure", seed=3, players=3)
    log["players"] = [{"name": name} for name in NAMES]
    stored = submit_log(dumps(log), user=people.ann.user)
    verify_log(stored.pk)
    jobs.request_analysis(GameLog.objects.get(pk=stored.pk), budget=TINY)
    return people.cid.user, reverse("analysis:game", args=[stored.pk])


SENDERS: dict[str, tuple[str, Callable[[Cast], tuple[Any, str]]]] = {
    "a game to confirm": (Kind.CONFIRM, game_to_confirm),
    "a dispute, told to the submitter": (Kind.DISPUTE, dispute_opened),
    "a dispute, told to staff": (Kind.DISPUTE, dispute_opened_for_staff),
    "a dispute's outcome": (Kind.DISPUTE_DECIDED, dispute_decided),
    "a claim to decide": (Kind.CLAIM, claim_to_decide),
    "a claim approved": (Kind.CLAIM_DECIDED, claim_approved),
    "a seat at a tournament table": (Kind.SEATED, seated),
    "an analysis finished": (Kind.ANALYSIS, analysis_finished),
}


@pytest.fixture
def people() -> Cast:
    return cast()


@pytest.mark.parametrize("sender", SENDERS, ids=list(SENDERS))
@pytest.mark.parametrize("delivery", ["immediately", "digest", "off"])
def test_each_kind_reaches_the_inbox_and_the_outbox_as_the_player_prefers(
    people, sender, delivery, mailoutbox, settings, django_capture_on_commit_callbacks
):
    settings.ANALYSIS_CHUNK_DECISIONS = 100
    kind, send = SENDERS[sender]
    prefer(people.everyone(), delivery)

    with django_capture_on_commit_callbacks(execute=True):
        recipient, url = send(people)
    mailed_at_once = mails_to(recipient)
    digests = send_digests()
    mailed_in_digest = mails_to(recipient)[len(mailed_at_once) :]

    [notice] = inbox_of(recipient, kind)
    assert notice.url == url and notice.read_at is None
    about_it = [m for m in mailed_at_once if m.subject == notice.subject]
    if delivery == "immediately":
        assert len(about_it) == 1 and notice.url in about_it[0].body
        assert mailed_in_digest == []
    elif delivery == "digest":
        assert mailed_at_once == [] and len(mailed_in_digest) == 1
        assert notice.subject in mailed_in_digest[0].body
    else:
        assert mailed_at_once == mailed_in_digest == [] and digests == 0


def test_a_claim_refused_says_who_refused_it(people, mailoutbox):
    claim_decided.send(sender=None, claim=a_claim(people), approved=False, decided_by=people.staff)

    [notice] = inbox_of(people.cid.user, Kind.CLAIM_DECIDED)

    assert notice.subject == "Your claim on the name Ann Abyss was refused"
    assert "staff refused" in notice.body


def test_an_organiser_of_a_tournament_the_name_played_in_hears_of_a_claim_on_it(people):
    table = running_table([people.ann, people.bea])
    organiser = type(people.staff).objects.create_user("org", "org@example.org", "x")
    table.round.tournament.organisers.add(organiser)
    stranger = type(people.staff).objects.create_user("stranger", "s@example.org", "x")
    elsewhere = type(people.staff).objects.create_user("elsewhere", "e@example.org", "x")
    elsewhere.is_staff = True
    elsewhere.save()
    other = Tournament.objects.create(name="Reef Open", slug="reef", starts_on=date(2026, 7, 1))
    other.organisers.add(elsewhere)

    claim_requested.send(sender=None, claim=a_claim(people))

    assert len(inbox_of(organiser, Kind.CLAIM)) == 1
    assert inbox_of(stranger) == [] and inbox_of(elsewhere) == []


def test_nobody_without_an_address_is_mailed_but_the_inbox_still_has_it(
    people, mailoutbox, django_capture_on_commit_callbacks
):
    people.bea.user.email = ""
    people.bea.user.save()

    with django_capture_on_commit_callbacks(execute=True):
        recipient, _ = game_to_confirm(people)

    assert len(inbox_of(recipient, Kind.CONFIRM)) == 1
    assert mails_to(recipient) == []
    assert [m.to for m in mailoutbox] == [["cid@example.org"]]


def test_a_seated_player_is_told_the_table_and_who_else_sits_there(people):
    table = running_table([people.ann, people.bea, people.cid])

    notify_round_seated(table.round)

    [notice] = inbox_of(people.bea.user, Kind.SEATED)
    assert notice.subject == "You are seated at table 1 (Club Night, round 1)"
    assert notice.body == (
        "Club Night, round 1: you play at table 1 with Ann Abyss, Cid Cephalopod."
    )


@pytest.mark.parametrize("answer", ["confirm", "dispute"])
def test_answering_a_game_reads_the_notice_that_asked_for_it(
    people, answer, django_capture_on_commit_callbacks
):
    bea = people.bea.user
    with django_capture_on_commit_callbacks(execute=True):
        answered = submitted_game(NAMES, people.ann.user, seed=1)
        still_waiting = submitted_game(NAMES, people.ann.user, seed=2)

    if answer == "confirm":
        confirmations.confirm(answered.log_id, bea)
    else:
        confirmations.dispute(answered.log_id, bea, 2, "not my bid")

    unread = {n.url for n in inbox_of(bea, Kind.CONFIRM) if n.read_at is None}
    assert unread == {f"/games/{still_waiting.log_id}/#confirmation"}
    assert all(notice.read_at is None for notice in inbox_of(people.cid.user, Kind.CONFIRM))
