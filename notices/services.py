"""The one place the site tells people things: `notify` puts a notice in a user's inbox and,
per their preference for its kind, e-mails it at once (`mail_notice_task`, after commit) or
in the day's digest (`send_digests_task`, from beat). Feature apps compose the words; this
module stores, counts and delivers them."""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import datetime
from typing import Any

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import EmailMessage, mailers
from django.db import transaction
from django.db.models import Q, QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from notices.models import DEFAULT_DELIVERY, Delivery, Kind, Notice, Preference

__all__ = ["Delivery", "Kind", "notify", "notify_round_seated", "notify_seated"]


def delivery_for(user: Any, kind: str) -> str:
    chosen = Preference.objects.filter(user=user, kind=kind).values_list("delivery", flat=True)
    return chosen.first() or DEFAULT_DELIVERY[Kind(kind)]


def preferences_of(user: Any) -> dict[str, str]:
    """Every kind's delivery for `user`, defaults filled in."""
    chosen = dict(Preference.objects.filter(user=user).values_list("kind", "delivery"))
    return {kind.value: chosen.get(kind.value, DEFAULT_DELIVERY[kind].value) for kind in Kind}


def set_preferences(user: Any, deliveries: dict[str, str]) -> None:
    for kind, delivery in deliveries.items():
        Preference.objects.update_or_create(
            user=user, kind=Kind(kind), defaults={"delivery": Delivery(delivery)}
        )


def notify(
    user: Any,
    kind: str,
    subject: str,
    body: str = "",
    url: str = "",
    due_at: datetime | None = None,
) -> Notice | None:
    """Tell `user` something: a notice in their inbox, e-mailed after commit if they want
    this kind at once and gave an address. Nobody to tell (no user, an inactive one): None."""
    if user is None or not user.is_active:
        return None
    notice = Notice.objects.create(
        user=user,
        kind=Kind(kind),
        subject=subject[: Notice._meta.get_field("subject").max_length],
        body=body.strip(),
        url=url,
        created=timezone.now(),
        due_at=due_at,
        delivery=delivery_for(user, kind),
    )
    if notice.delivery == Delivery.IMMEDIATELY and user.email:
        mail_notice_task.delay_on_commit(notice.pk)
    return notice


def notify_seated(table: Any) -> list[Notice]:
    """Tell each player with an account seated at a tournament table where to sit. `table`
    is a tournaments Table (its number, round, seats and their players); the tournaments app
    calls this once a round is seated."""
    round_ = table.round
    where = f"{round_.tournament.name}, round {round_.number}"
    sent = []
    seats = list(table.seats.select_related("player__user").order_by("seat"))
    for seat in seats:
        others = [other.player.display_name for other in seats if other.pk != seat.pk]
        notice = notify(
            seat.player.user,
            Kind.SEATED,
            f"You are seated at table {table.number} ({where})",
            f"{where}: you play at table {table.number} with {', '.join(others) or 'nobody else'}.",
            url=table.get_absolute_url(),
        )
        if notice is not None:
            sent.append(notice)
    return sent


def notify_round_seated(round_: Any) -> list[Notice]:
    """notify_seated for every table of a tournament round, once it is seated."""
    tables = round_.tables.select_related("round__tournament").order_by("number")
    return [notice for table in tables for notice in notify_seated(table)]


def people_of_game(log_id: int) -> QuerySet:
    """The users whose game a log is: its seated players with accounts, and its submitter."""
    return (
        get_user_model()
        .objects.filter(
            Q(player__seats__game__log_id=log_id) | Q(uploads__logs__pk=log_id), is_active=True
        )
        .distinct()
    )


def hours_left(due_at: datetime, now: datetime | None = None) -> str:
    """'47 h left' (whole hours, rounded down), 'less than an hour left', or 'due'."""
    seconds = (due_at - (now or timezone.now())).total_seconds()
    if seconds <= 0:
        return "due"
    if seconds < 3600:
        return "less than an hour left"
    return f"{math.floor(seconds / 3600)} h left"


# --- the inbox ---------------------------------------------------------------------------


def inbox(user: Any) -> QuerySet[Notice]:
    """`user`'s own notices, newest first (nobody else's, ever)."""
    if not user.is_authenticated:
        return Notice.objects.none()
    return Notice.objects.filter(user=user)


def unread_count(user: Any) -> int:
    return inbox(user).filter(read_at__isnull=True).count()


def mark_read(user: Any, notice_id: int) -> Notice | None:
    """Mark one of `user`'s notices read; None when it is not theirs (or not there)."""
    notice = inbox(user).filter(pk=notice_id).first()
    if notice is not None and notice.read_at is None:
        notice.read_at = timezone.now()
        notice.save(update_fields=["read_at"])
    return notice


def mark_read_about(user: Any, kind: str, url: str) -> int:
    """What was asked is done (a game answered): `user`'s notices of this kind about `url` are
    read, so the unread count stops asking."""
    unread = inbox(user).filter(kind=kind, url=url, read_at__isnull=True)
    return unread.update(read_at=timezone.now())


def mark_all_read(user: Any) -> int:
    return inbox(user).filter(read_at__isnull=True).update(read_at=timezone.now())


# --- e-mail ------------------------------------------------------------------------------


def site_url(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def links() -> dict[str, str]:
    return {
        "inbox_url": site_url(reverse("notices:inbox")),
        "preferences_url": site_url(reverse("notices:preferences")),
    }


def claimed(notices: QuerySet[Notice]) -> list[Notice]:
    """Those of `notices` whose mail nobody has sent yet, now marked as sent by this caller:
    two workers given the same notice (a redelivered task, two digests) send it once."""
    now = timezone.now()
    with transaction.atomic():
        ids = list(
            notices.select_for_update(of=("self",))  # not the users' rows it joins
            .filter(mailed_at__isnull=True)
            .values_list("pk", flat=True)
        )
        Notice.objects.filter(pk__in=ids).update(mailed_at=now)
    return list(Notice.objects.filter(pk__in=ids).select_related("user").order_by("created", "pk"))


def mail_notice(notice_id: int) -> int:
    """E-mail one notice to its user; 1 if sent, 0 if sent already or no address."""
    notices = claimed(Notice.objects.filter(pk=notice_id, user__email__gt=""))
    if not notices:
        return 0
    notice = notices[0]
    context = {"notice": notice, "user": notice.user, "url": site_url(notice.url), **links()}
    try:
        EmailMessage(
            notice.subject,
            render_to_string("notices/email/notice_body.txt", context),
            settings.DEFAULT_FROM_EMAIL,
            [notice.user.email],
        ).send()
    except Exception:
        Notice.objects.filter(pk=notice.pk).update(mailed_at=None)  # the retry sends it
        raise
    return 1


@shared_task
def mail_notice_task(notice_id: int) -> int:
    return mail_notice(notice_id)


def send_digests(now: datetime | None = None) -> int:
    """One e-mail per user grouping every notice of theirs waiting for the digest (a day's,
    when beat runs this daily); returns how many e-mails left."""
    now = now or timezone.now()
    waiting = Notice.objects.filter(
        delivery=Delivery.DIGEST, mailed_at__isnull=True, created__lte=now, user__email__gt=""
    )
    by_user: dict[int, list[Notice]] = defaultdict(list)
    for notice in claimed(waiting):
        by_user[notice.user_id].append(notice)
    messages = []
    for notices in by_user.values():
        user = notices[0].user
        context = {
            "user": user,
            "notices": [(notice, site_url(notice.url)) for notice in notices],
            **links(),
        }
        count = len(notices)
        messages.append(
            EmailMessage(
                f"Your day on deep-sea tournaments: {count} notice{'s' if count > 1 else ''}",
                render_to_string("notices/email/digest_body.txt", context),
                settings.DEFAULT_FROM_EMAIL,
                [user.email],
            )
        )
    if messages:
        try:
            mailers.default.send_messages(messages)
        except Exception:
            sent = [notice.pk for notices in by_user.values() for notice in notices]
            Notice.objects.filter(pk__in=sent).update(mailed_at=None)  # tomorrow's digest
            raise
    return len(messages)


@shared_task
def send_digests_task() -> int:
    """Periodic (celery beat, daily): the digest e-mails."""
    return send_digests()
