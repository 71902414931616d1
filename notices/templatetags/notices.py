"""The nav's unread count, and the time left on a notice that asks something by a deadline."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template

from notices import services

register = template.Library()


@register.simple_tag
def unread_notices(user: Any) -> int:
    return services.unread_count(user)


@register.filter
def time_left(due_at: datetime | None) -> str:
    return services.hours_left(due_at) if due_at else ""
