"""Telling players a game waits for their confirmation. On the site, the nav's count and
the pending page show it; here, an e-mail to each player who gave an address."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mass_mail
from django.template.loader import render_to_string
from django.urls import reverse

from confirmations.models import Confirmation, Review


def mail_players(review_id: int) -> int:
    """One message to each asked player with an e-mail address; returns how many."""
    review = Review.objects.filter(pk=review_id).select_related("log").first()
    if review is None or review.status != Review.Status.PENDING:
        return 0
    waiting = review.confirmations.filter(answer=Confirmation.Answer.WAITING).select_related(
        "player__user"
    )
    site = settings.SITE_URL.rstrip("/")
    messages = []
    for confirmation in waiting:
        address = confirmation.player.user.email if confirmation.player.user else ""
        if not address:
            continue
        context = {
            "player": confirmation.player,
            "review": review,
            "game_url": site + reverse("games:log", args=[review.log_id]),
            "pending_url": site + reverse("confirmations:pending"),
            "window_hours": settings.GAMES_CONFIRMATION_WINDOW_HOURS,
        }
        subject = render_to_string("confirmations/email/ask_subject.txt", context).strip()
        body = render_to_string("confirmations/email/ask_body.txt", context)
        messages.append((subject, body, settings.DEFAULT_FROM_EMAIL, [address]))
    return send_mass_mail(messages, fail_silently=False) if messages else 0
