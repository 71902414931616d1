"""The tournament day's pages: a player's own page ("my tournament"), the organiser's desk,
the printed table sheets and the venue screen. Views stay short: the services decide
(tournaments.services.day, roster, corrections, my_day); a refusal is a 4xx page naming why,
or the form again with the reason beside the field."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import segno
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from players import claims, names
from players.models import Player
from tournaments.forms import HandResultForm, PasteNamesForm, RegistrationSettingsForm, TimerForm
from tournaments.models import Registration, Table, Tournament
from tournaments.services import corrections, day
from tournaments.services.day import DayRefused
from tournaments.services.my_day import day_rounds, my_day
from tournaments.services.roster import register_pasted
from tournaments.services.seating import SeatingError, seat_next_round, seating_refusal
from tournaments.services.standings import standings_shown

View = Callable[..., HttpResponse]


def refused(request: HttpRequest, refusal: DayRefused) -> HttpResponse:
    return render(
        request, "tournaments/refused.html", {"why": refusal.message}, status=refusal.status
    )


def signed_in(view: View) -> View:
    """Anonymous visitors go to the sign-in page (and come back); a DayRefused raised by the
    view is its 4xx page."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        try:
            return view(request, *args, **kwargs)
        except DayRefused as refusal:
            return refused(request, refusal)

    return wrapped


def organiser(view: View) -> View:
    """A desk view: the tournament named by the URL, run by the signed-in user."""

    @signed_in
    @functools.wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        tournament = get_object_or_404(Tournament, slug=slug)
        day.must_run(request.user, tournament, "use its desk")
        return view(request, tournament, *args, **kwargs)

    return wrapped


# --- a player's own page ------------------------------------------------------------------


def my_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    player = Player.objects.filter(user=request.user).first()
    return {
        "tournament": tournament,
        **my_day(tournament, player),
        "standings": standings_shown(tournament),
        "entry_refusal": day.entry_refusal(tournament),
    }


@signed_in
def me(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "tournaments/me.html", my_context(request, tournament))


@signed_in
def me_live(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "tournaments/_me_live.html", my_context(request, tournament))


def my_action(action: Callable[[Tournament, Any], Any], done: str) -> View:
    @require_POST
    @signed_in
    def view(request: HttpRequest, slug: str) -> HttpResponse:
        tournament = get_object_or_404(Tournament, slug=slug)
        action(tournament, request.user)
        messages.success(request, done)
        return redirect("tournaments:me", slug)

    return view


me_register = my_action(day.register_myself, "You are registered. Check in when you arrive.")
me_check_in = my_action(day.check_myself_in, "You are checked in: you will be seated.")
me_drop = my_action(day.drop_myself, "You have dropped out: you are not seated any more.")


# --- the organiser's desk -----------------------------------------------------------------


def desk_context(tournament: Tournament, user: Any, **forms: Any) -> dict[str, Any]:
    # By name as people expect (players.names.sort_key): the database's C collation would
    # put "Émile" after "Zoë" and "emma" after both.
    registrations = sorted(
        tournament.registrations.select_related("player"),
        key=lambda r: names.sort_key(r.player.display_name),
    )
    rounds = day_rounds(tournament)
    return {
        "tournament": tournament,
        "finished": tournament.status == Tournament.Status.FINISHED,
        "registrations": registrations,
        "checked_in": sum(
            1 for r in registrations if r.checked_in_at and r.dropped_after_round is None
        ),
        # Names of this tournament with a claim waiting that this user may decide
        # (players.claims: never their own request), tagged with a link to the approvers'
        # page (issue 23); others who run the desk would find nothing to do there.
        "claims_waiting": claims.names_to_decide(
            user, Player.objects.filter(registrations__tournament=tournament)
        ),
        "rounds": rounds,
        "latest": rounds[0].round if rounds else None,
        "seconds_left": day.seconds_left(rounds[0].round if rounds else None),
        # With the latest round's timer running the desk says until when instead of offering
        # to start it (a start then is refused, 409).
        "timer_runs": day.timer_runs(rounds[0].round if rounds else None),
        "next_round": day.next_round_number(tournament),
        "settings_form": forms.get("settings_form")
        or RegistrationSettingsForm(instance=tournament),
        "names_form": forms.get("names_form") or PasteNamesForm(tournament=tournament),
        "timer_form": forms.get("timer_form") or TimerForm(),
        "seat_error": forms.get("seat_error"),
        # Why "Seat round N" is disabled (results of the round before still to come): said
        # beside the button, and the server refuses the same post with it (409).
        "seat_refusal": seating_refusal(tournament),
    }


def desk_again(request: HttpRequest, tournament: Tournament, status: int, **forms: Any):
    return render(
        request,
        "tournaments/desk.html",
        desk_context(tournament, request.user, **forms),
        status=status,
    )


def back_to_desk(tournament: Tournament, anchor: str = "") -> HttpResponse:
    response = redirect("tournaments:desk", tournament.slug)
    response["Location"] += f"#{anchor}" if anchor else ""
    return response


@organiser
def desk(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "tournaments/desk.html", desk_context(tournament, request.user))


@organiser
def desk_live(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rounds = day_rounds(tournament, latest_only=True)
    context = {
        "tournament": tournament,
        "rounds": rounds,
        "seconds_left": day.seconds_left(rounds[0].round if rounds else None),
        # With the latest round's timer running the desk says until when instead of offering
        # to start it (a start then is refused, 409).
        "timer_runs": day.timer_runs(rounds[0].round if rounds else None),
        # The seat button, enabled once the last table's result is in (a finished event
        # shows none to replace).
        "out_of_band": tournament.status != Tournament.Status.FINISHED,
        "next_round": day.next_round_number(tournament),
        "seat_refusal": seating_refusal(tournament),
    }
    return render(request, "tournaments/_desk_live.html", context)


@require_POST
@organiser
def desk_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = RegistrationSettingsForm(request.POST, instance=tournament)
    if not form.is_valid():
        tournament.refresh_from_db()
        return desk_again(request, tournament, 400, settings_form=form)
    form.save()
    messages.success(request, "Registration settings saved.")
    return back_to_desk(tournament, "registration")


@require_POST
@organiser
def desk_register(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PasteNamesForm(request.POST, tournament=tournament)
    if not form.is_valid():
        return desk_again(request, tournament, 400, names_form=form)
    registered = register_pasted(tournament, form.pasted, form.answers())
    messages.success(request, f"{len(registered)} player(s) registered.")
    return back_to_desk(tournament, "players")


def registration_posted(request: HttpRequest, tournament: Tournament) -> Registration:
    registration_id = request.POST.get("registration", "")
    if not registration_id.isdigit():
        raise DayRefused(f"registration: not a registration id: {registration_id!r}", 400)
    registration = Registration.objects.filter(pk=int(registration_id), tournament=tournament)
    found = registration.select_related("player", "tournament").first()
    if found is None:
        raise Http404(f"{tournament} has no registration {registration_id}")
    return found


@require_POST
@organiser
def desk_check_in(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    registration = registration_posted(request, tournament)
    day.check_in(registration)
    messages.success(request, f"{registration.player.display_name} is checked in.")
    return back_to_desk(tournament, "players")


@require_POST
@organiser
def desk_drop(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    registration = registration_posted(request, tournament)
    day.drop(registration)
    messages.success(request, f"{registration.player.display_name} has dropped out.")
    return back_to_desk(tournament, "players")


@require_POST
@organiser
def desk_seat(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        round_ = seat_next_round(tournament)
    except SeatingError as error:
        return desk_again(request, tournament, 409, seat_error=str(error))
    messages.success(request, f"Round {round_.number} is seated at {round_.tables.count()} tables.")
    return back_to_desk(tournament, "tables")


@require_POST
@organiser
def desk_timer(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TimerForm(request.POST)
    latest = day.latest_round(tournament)
    if latest is None:
        form.is_valid()
        form.add_error(None, "seat a round first: the timer is the latest round's")
    if not form.is_valid():
        return desk_again(request, tournament, 400 if latest else 409, timer_form=form)
    day.start_timer(latest, form.cleaned_data["minutes"])
    messages.success(
        request, f"Round {latest.number}: {form.cleaned_data['minutes']} minutes, from now."
    )
    return back_to_desk(tournament, "round")


@require_POST
@organiser
def desk_finish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    day.finish(tournament)
    messages.success(request, f"{tournament} is finished: the standings are final.")
    return back_to_desk(tournament)


def table_of(tournament: Tournament, table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament", "log"),
        pk=table_id,
        round__tournament=tournament,
    )


@organiser
def desk_table(request: HttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    """A table's result: enter or edit it by hand, or undo it; and its history."""
    table = table_of(tournament, table_id)
    seats = sorted(table.seats.select_related("player"), key=lambda seat: seat.seat)
    form = HandResultForm(request.POST or None, seats=seats)
    if request.method == "POST":
        if form.is_valid():
            corrections.set_hand_result(table, form.result(), user=request.user)
            messages.success(request, f"Table {table.number}: result saved (entered by hand).")
            return redirect("tournaments:desk-table", tournament.slug, table.pk)
        status = 400
    else:
        status = 200
    history = list(table.result_changes.select_related("by__player"))
    result = corrections.result_of(table)
    # Every result the page tells (now, each change's before and after) in one reading.
    told = corrections.told_results(
        [result, *(r for change in history for r in (change.before, change.after))]
    )
    for number, change in enumerate(history):
        change.before_told, change.after_told = told[1 + 2 * number : 3 + 2 * number]
        player = getattr(change.by, "player", None) if change.by else None
        change.by_name = player.display_name if player else change.by or "the site"
    context = {
        "tournament": tournament,
        "table": table,
        "form": form,
        "history": history,
        "result": result,
        "result_told": told[0],
    }
    return render(request, "tournaments/desk_table.html", context, status=status)


@require_POST
@organiser
def desk_undo(request: HttpRequest, tournament: Tournament, table_id: int) -> HttpResponse:
    table = table_of(tournament, table_id)
    corrections.undo_result(table, user=request.user)
    messages.success(request, f"Table {table.number}: result undone.")
    return redirect("tournaments:desk-table", tournament.slug, table.pk)


@organiser
def table_sheets(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """One printed page per table: seats in order, the opening bidder, and a QR code of the
    table's record link."""
    rounds = [r for r in day_rounds(tournament) if r.round.number == number]
    if not rounds:
        raise Http404(f"{tournament} has no round {number}")
    sheets = [
        (table, segno.make(request.build_absolute_uri(table.record_url)).svg_inline(scale=4))
        for table in rounds[0].tables
    ]
    return render(
        request,
        "tournaments/sheets.html",
        {"tournament": tournament, "round": rounds[0].round, "sheets": sheets},
    )


# --- the venue screen ---------------------------------------------------------------------


def screen_context(tournament: Tournament) -> dict[str, Any]:
    rounds = day_rounds(tournament, latest_only=True)
    latest = rounds[0] if rounds else None
    return {
        "tournament": tournament,
        "current": latest,
        "seconds_left": day.seconds_left(latest.round if latest else None),
        "standings": standings_shown(tournament),
    }


def screen(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "tournaments/screen.html", screen_context(tournament))


def screen_live(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "tournaments/_screen_live.html", screen_context(tournament))
