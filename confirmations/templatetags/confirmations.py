"""The nav's count of games waiting for the signed-in player, and a game page's
confirmation box."""

from __future__ import annotations

from typing import Any

from django import template

from confirmations import services
from confirmations.models import Confirmation

register = template.Library()


@register.simple_tag
def pending_count(user: Any) -> int:
    return services.waiting_for(user).count()


@register.filter
def disputed_moment(answer: Confirmation) -> str:
    """A dispute's step in the replay's words (services.disputed_moment)."""
    return services.disputed_moment(answer)


@register.inclusion_tag("confirmations/_game_status.html", takes_context=True)
def game_confirmation(context: dict[str, Any], log: Any, event_count: int) -> dict[str, Any]:
    """Where the game stands, who was asked and what they answered; the signed-in player's
    own confirm / dispute forms, and the form for players answering at the table."""
    request = context["request"]
    review = services.review_of(log)
    answers = list(review.confirmations.all()) if review else []
    mine = None
    if review and request.user.is_authenticated:
        mine = next((a for a in answers if a.player.user_id == request.user.pk), None)
    waiting = review is not None and review.status == review.Status.PENDING
    return {
        "request": request,
        "log": log,
        "review": review,
        "answers": answers,
        "mine": mine,
        "can_answer": waiting and mine is not None and mine.answer == Confirmation.Answer.WAITING,
        "at_table": waiting and request.user.is_authenticated,
        "last_event": max(event_count - 1, 0),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("confirmations/_replay_dispute.html", takes_context=True)
def replay_dispute(context: dict[str, Any], log: Any) -> dict[str, Any]:
    """Below the replay, for a player the game waits for: dispute the event the replay is
    showing (viewer.js keeps the form's event and return address on the replay's step)."""
    request = context["request"]
    mine = services.waiting_for(request.user).filter(review__log=log).select_related("player")
    return {
        "log": log,
        "mine": mine.first(),
        "request": request,
        "csrf_token": context.get("csrf_token"),
    }
