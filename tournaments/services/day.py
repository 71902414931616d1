"""The tournament day: who runs a tournament, registration, check-in, drops and late
entries, and the round timer. Every refusal is a DayRefused naming why, with the HTTP status
that says so, and then nothing has changed."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from players.models import Player
from tournaments.models import Registration, Round, Tournament

MAX_ROUND_MINUTES = 600


class DayRefused(Exception):
    """An action of the tournament day that cannot be taken; the message says why."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def runs(user: Any, tournament: Tournament) -> bool:
    """Staff run every tournament; an organiser runs their own."""
    if not (user.is_authenticated and user.is_active):
        return False
    return user.is_staff or tournament.organisers.filter(pk=user.pk).exists()


def must_run(user: Any, tournament: Tournament, what: str) -> None:
    if not runs(user, tournament):
        raise DayRefused(f"only staff or the organisers of {tournament} may {what}", 403)


def player_of(user: Any) -> Player:
    """The player a signed-in user plays as (the name they claimed)."""
    player = Player.objects.filter(user=user).first() if user.is_authenticated else None
    if player is None:
        raise DayRefused(
            "claim your player name first (Account, then 'Claim your player name'): "
            "a player registers, checks in and drops only as themselves",
            403,
        )
    return player


def latest_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.order_by("-number").first()


def next_round_number(tournament: Tournament) -> int:
    last = latest_round(tournament)
    return 1 if last is None else last.number + 1


def desk_entry_refusal(tournament: Tournament) -> str | None:
    """Why even the organisers cannot enter a player now (they take late entries at any
    round still to be seated)."""
    if tournament.status == Tournament.Status.FINISHED:
        return f"{tournament} is finished"
    if next_round_number(tournament) > tournament.rounds_planned:
        return f"all {tournament.rounds_planned} rounds of {tournament} are seated"
    return None


def entry_refusal(tournament: Tournament) -> str | None:
    """Why a player may not enter themselves now (finished, every round seated, or past the
    last round open to late entries)."""
    refusal = desk_entry_refusal(tournament)
    if refusal is not None:
        return refusal
    number = next_round_number(tournament)
    if number > 1:
        until = tournament.late_entries_until_round
        if until is None or number > until:
            last = "no late entries" if until is None else f"late entries until round {until}"
            return f"round {number - 1} is seated and the organisers take {last}"
    return None


def enter(tournament: Tournament, player: Player) -> Registration:
    """Register a player from the next round on (a late entry once round 1 is seated); a
    player registered already keeps their entry (a dropped one is entered again)."""
    registration = Registration.objects.filter(tournament=tournament, player=player).first()
    number = next_round_number(tournament)
    if registration is None:
        return Registration.objects.create(
            tournament=tournament, player=player, joined_round=number
        )
    if registration.dropped_after_round is not None:
        registration.dropped_after_round = None
        registration.joined_round = max(registration.joined_round, number)
        registration.save(update_fields=["dropped_after_round", "joined_round"])
    return registration


def register_myself(tournament: Tournament, user: Any) -> Registration:
    player = player_of(user)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if not tournament.registration_open:
            raise DayRefused(f"registration for {tournament} is closed")
        mine = Registration.objects.filter(tournament=tournament, player=player).first()
        if mine is not None and mine.dropped_after_round is None:
            raise DayRefused(f"{player.display_name} is registered already")
        refusal = entry_refusal(tournament)
        if refusal is not None:
            raise DayRefused(f"you cannot enter now: {refusal}")
        return enter(tournament, player)


def registration_of(tournament: Tournament, player: Player) -> Registration | None:
    return Registration.objects.filter(tournament=tournament, player=player).first()


def check_in(registration: Registration) -> None:
    tournament = registration.tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise DayRefused(f"{tournament} is finished")
    if registration.dropped_after_round is not None:
        raise DayRefused(f"{registration.player.display_name} has dropped out of {tournament}")
    if registration.checked_in_at is None:
        registration.checked_in_at = timezone.now()
        registration.save(update_fields=["checked_in_at"])


def check_myself_in(tournament: Tournament, user: Any) -> Registration:
    player = player_of(user)
    registration = registration_of(tournament, player)
    if registration is None:
        raise DayRefused(f"{player.display_name} is not registered for {tournament}", 403)
    check_in(registration)
    return registration


def drop(registration: Registration) -> None:
    """Out from the next round on. Before round 1 is seated the entry is simply withdrawn."""
    tournament = registration.tournament
    if tournament.status == Tournament.Status.FINISHED:
        raise DayRefused(f"{tournament} is finished")
    if registration.dropped_after_round is not None:
        raise DayRefused(f"{registration.player.display_name} has dropped out already")
    last = latest_round(tournament)
    if last is None:
        registration.delete()
        return
    registration.dropped_after_round = last.number
    registration.save(update_fields=["dropped_after_round"])


def drop_myself(tournament: Tournament, user: Any) -> None:
    player = player_of(user)
    registration = registration_of(tournament, player)
    if registration is None:
        raise DayRefused(f"{player.display_name} is not registered for {tournament}", 403)
    drop(registration)


def finish(tournament: Tournament) -> None:
    """End the event: no more rounds, entries or check-ins. Every table of the last round
    needs its result first (the standings are final then)."""
    if tournament.status == Tournament.Status.FINISHED:
        raise DayRefused(f"{tournament} is finished already")
    last = latest_round(tournament)
    if last is None:
        raise DayRefused(f"{tournament} has not played a round yet")
    waiting = [
        str(table.number)
        for table in last.tables.prefetch_related("seats", "log__game")
        if table.result_kind == "pending"
    ]
    if waiting:
        raise DayRefused(
            f"round {last.number} still has no result at table(s) {', '.join(waiting)}"
        )
    tournament.status = Tournament.Status.FINISHED
    tournament.registration_open = False
    tournament.save(update_fields=["status", "registration_open"])


def timer_runs(round_: Round | None) -> bool:
    """Whether the round's timer is started and not yet over."""
    return round_ is not None and round_.ends_at is not None and round_.ends_at > timezone.now()


def start_timer(round_: Round, minutes: int) -> None:
    """Start the round's timer now; once it is over it may be started again. A second start
    while it runs is refused (a second click, or two organisers at once, would otherwise
    silently move the end of the round that the players' pages count down to)."""
    if round_.tournament.status == Tournament.Status.FINISHED:
        raise DayRefused(f"{round_.tournament} is finished")
    if not 1 <= minutes <= MAX_ROUND_MINUTES:
        raise DayRefused(f"minutes: a round lasts 1 to {MAX_ROUND_MINUTES} minutes, not {minutes}")
    with transaction.atomic():
        # Locked, so of two starts at once the second sees the first's timer.
        locked = Round.objects.select_for_update().get(pk=round_.pk)
        if timer_runs(locked):
            until = timezone.localtime(locked.ends_at).strftime("%H:%M")
            raise DayRefused(f"round {locked.number}'s timer already runs until {until}")
        locked.timer_started_at = timezone.now()
        locked.timer_minutes = minutes
        locked.save(update_fields=["timer_started_at", "timer_minutes"])
    round_.timer_started_at = locked.timer_started_at
    round_.timer_minutes = locked.timer_minutes


def seconds_left(round_: Round | None) -> int | None:
    """Whole seconds until the round's timer ends (0 once over), None with no timer."""
    if round_ is None or round_.ends_at is None:
        return None
    return max(0, int((round_.ends_at - timezone.now()).total_seconds()))
