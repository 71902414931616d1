"""Who may submit which game: the one rule every intake path asks (API single logs, each
line of a batch, the upload page, the record page).

Staff may submit any game. Anyone else may submit only games in which their own player sits
(`user.player`, the name they claimed), so nobody can post results under other people's
names. The site itself (commands, the demo, the simulation lab's workers: no user) is
trusted. A tournament table's result has its own rule, checked by the service that attaches
it (tournaments.services.results.attach_log: staff, the tournament's organisers or a player
seated there), which then submits with `may_submit_any`.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist

from games.services.errors import IntakeError
from players.names import canonical_name


class SubmissionRefused(IntakeError):
    """The submitter may not submit this game; nothing was stored."""

    status = 403


def own_player(user: Any) -> Any:
    try:
        return user.player
    except ObjectDoesNotExist:
        return None


def submission_refusal(user: Any, log: dict[str, Any]) -> str | None:
    """Why `user` may not submit this parsed log, or None when they may."""
    if user is None:
        return None
    if not user.is_authenticated:
        return "sign in to submit games"
    if user.is_staff:
        return None
    player = own_player(user)
    if player is None:
        return (
            "you may submit only games you sit in, and your account has no player name "
            "yet: claim yours first"
        )
    players = log.get("players") if isinstance(log.get("players"), list) else []
    names = [entry.get("name") for entry in players if isinstance(entry, dict)]
    if player.canonical_name not in {canonical_name(n) for n in names if isinstance(n, str)}:
        return (
            f"you may submit only games you sit in: your player {player.display_name} "
            f"(@{player.handle}) is not one of this game's players"
        )
    return None


def check_may_submit(user: Any, log: dict[str, Any]) -> None:
    """Raise SubmissionRefused (403) unless `user` may submit this parsed log."""
    refusal = submission_refusal(user, log)
    if refusal is not None:
        raise SubmissionRefused(refusal)
