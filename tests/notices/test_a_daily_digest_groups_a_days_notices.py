"""The daily digest: one e-mail per player grouping every notice of theirs that waited for
it, each notice sent once whatever happens (a second run, another player's notices)."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.utils import timezone

from notices.models import Kind, Notice
from notices.services import notify, send_digests
from tests.notices_support import cast, mails_to, prefer

pytestmark = pytest.mark.django_db


def test_a_days_notices_reach_each_player_in_one_email(mailoutbox):
    people = cast()
    prefer([people.bea.user, people.cid.user], "digest")
    told = [
        ("bea", Kind.CONFIRM, "Confirm Deep Vents, 1 Dec 2026: Ann Abyss, Bea Benthic"),
        ("bea", Kind.SEATED, "You are seated at table 3 (Club Night, round 2)"),
        ("bea", Kind.ANALYSIS, "Analysis ready: Deep Vents, 1 Dec 2026: Ann Abyss, Bea Benthic"),
        ("cid", Kind.DISPUTE_DECIDED, "It counts: staff accepted Deep Vents, 1 Dec 2026: Cid"),
    ]
    for who, kind, subject in told:
        notify(getattr(people, who).user, kind, subject, "details", url="/games/7/")

    sent = send_digests()
    again = send_digests()

    assert (sent, again) == (2, 0)
    [bea_mail] = mails_to(people.bea.user)
    [cid_mail] = mails_to(people.cid.user)
    assert bea_mail.subject == "Your day on deep-sea tournaments: 3 notices"
    bea_subjects = [subject for who, _, subject in told if who == "bea"]
    positions = [bea_mail.body.index(subject) for subject in bea_subjects]
    assert positions == sorted(positions)  # in the order they were told
    assert "staff accepted" not in bea_mail.body
    assert cid_mail.subject == "Your day on deep-sea tournaments: 1 notice"
    assert f"{settings.SITE_URL.rstrip('/')}/games/7/" in cid_mail.body
    assert not Notice.objects.filter(mailed_at__isnull=True).exists()


def test_the_digest_leaves_out_notices_sent_at_once_and_those_told_after_it_was_cut(mailoutbox):
    people = cast()
    prefer([people.bea.user], "digest")
    notify(people.bea.user, Kind.CONFIRM, "Waiting since this morning")
    cut = timezone.now()
    later = notify(people.bea.user, Kind.CONFIRM, "Told after the cut")
    Notice.objects.filter(pk=later.pk).update(created=cut + datetime.timedelta(seconds=1))
    prefer([people.bea.user], "immediately")
    notify(people.bea.user, Kind.CONFIRM, "Mailed at once")

    send_digests(now=cut)

    digest = [m for m in mails_to(people.bea.user) if m.subject.startswith("Your day")]
    assert len(digest) == 1
    assert "Waiting since this morning" in digest[0].body
    assert "Told after the cut" not in digest[0].body
    assert "Mailed at once" not in digest[0].body


def test_a_failed_digest_is_sent_again_next_time(mailoutbox, monkeypatch):
    people = cast()
    prefer([people.bea.user], "digest")
    notify(people.bea.user, Kind.SEATED, "You are seated at table 1")

    def refuse(self, messages):
        raise ConnectionRefusedError("the SMTP server is down")

    from django.core.mail.backends.locmem import EmailBackend

    with monkeypatch.context() as patch:
        patch.setattr(EmailBackend, "send_messages", refuse)
        with pytest.raises(ConnectionRefusedError):
            send_digests()
    sent = send_digests()

    assert sent == 1 and "You are seated at table 1" in mails_to(people.bea.user)[0].body
