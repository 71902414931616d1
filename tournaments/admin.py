"""The tournament desk in the admin: organisers run their tournaments from the tournament's
own page (register players by name, seat the next round, print the seating, give each table
its result), every refusal an error message naming the problem.

Who runs what: whoever holds the `tournaments.change_tournament` permission (superusers
included) runs every tournament; any other staff member runs the tournaments they organise,
and needs no model permission for it. Organisers who are not staff stay out of the admin.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AutocompleteSelect
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.views.decorators.http import require_POST

from games.admin_columns import GameNamedInWords
from games.models import GameLog
from games.services.errors import IntakeError, TableRefused
from games.viewer import error_in_words, read_log
from players import admin as players_admin
from players.models import Player
from tournaments.models import Registration, Table, TableSeat, Tournament
from tournaments.services.results import (
    attach_log,
    detach_rejected_log,
    enter_hand_result,
    hand_result_refusal,
    replay_refusal,
    table_refusal,
)
from tournaments.services.seating import SeatingError, seat_next_round
from tournaments.services.table_recording import open_tables


def runs_every_tournament(user: Any) -> bool:
    return user.has_perm("tournaments.change_tournament")


def at_the_desk(user: Any) -> bool:
    """Whether the user may enter the tournament desk at all: active staff who run at
    least one tournament (or every one)."""
    if not (user.is_active and user.is_staff):
        return False
    return runs_every_tournament(user) or user.organised_tournaments.exists()


class RunByOrganisers:
    """Admin permissions for a model of tournaments: the model permissions as usual, and for
    organisers (see the module docstring) view and change of their own tournaments' rows."""

    tournament_path = ""  # the lookup from this model to its tournament ("" for Tournament)

    def tournament_of(self, obj: Any) -> Tournament:
        for step in filter(None, self.tournament_path.split("__")):
            obj = getattr(obj, step)
        return obj

    def organises(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return at_the_desk(request.user)
        if not (request.user.is_active and request.user.is_staff):
            return False
        return self.tournament_of(obj).organisers.filter(pk=request.user.pk).exists()

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        rows = super().get_queryset(request)
        if runs_every_tournament(request.user):
            return rows
        lookup = "__".join(filter(None, [self.tournament_path, "organisers"]))
        return rows.filter(**{lookup: request.user})

    def has_module_permission(self, request: HttpRequest) -> bool:
        return super().has_module_permission(request) or self.organises(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) or self.organises(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_change_permission(request, obj) or self.organises(request, obj)


class OrganisersInline(RunByOrganisers):
    """An inline of a page run by organisers: its `obj` in permission checks is the parent
    (tournament_path leads from the parent to its tournament), whose rows organisers may
    add, change and delete as the inline allows."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_add_permission(request, obj) or self.organises(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_delete_permission(request, obj) or self.organises(request, obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super(RunByOrganisers, self).get_queryset(request)  # the parent's rows


# Organisers at the desk look players up and add newcomers: their permissions join the
# players' admin from up here (players knows nothing of tournaments).
admin.site.unregister(Player)


@admin.register(Player)
class PlayerAdmin(players_admin.PlayerAdmin):
    # Organisers look players up by name to register them (the autocomplete asks this
    # admin, with view permission) and add the newcomers; changing a player stays staff's.
    def has_module_permission(self, request: HttpRequest) -> bool:
        return super().has_module_permission(request) or at_the_desk(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) or at_the_desk(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return super().has_add_permission(request) or at_the_desk(request.user)

    def get_readonly_fields(self, request: HttpRequest, obj: Player | None = None):
        fixed = list(super().get_readonly_fields(request, obj))
        if not self.has_change_permission(request, obj):
            fixed.append("user")  # whose account a player is stays staff's to say
        return fixed


class LabelledInline:
    """A tabular inline whose inputs carry their column's name (the admin's column heads are
    no <label>, so screen readers and axe-core found the inputs unnamed)."""

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if field is not None:
            field.widget.attrs.setdefault("aria-label", str(field.label))
        return field


class LabelledFormSet(forms.BaseInlineFormSet):
    def add_fields(self, form, index) -> None:
        super().add_fields(form, index)
        if "DELETE" in form.fields:
            form.fields["DELETE"].widget.attrs["aria-label"] = "Delete this row"


class PlayerByName(AutocompleteSelect):
    """The autocomplete, saying what to type (select2 names an empty box by its
    placeholder; the admin's own is empty)."""

    def build_attrs(self, base_attrs, extra_attrs=None):
        return {**super().build_attrs(base_attrs, extra_attrs), "data-placeholder": "Type a name"}


class RegistrationInline(OrganisersInline, LabelledInline, admin.TabularInline):
    model = Registration
    formset = LabelledFormSet
    # No empty row until "Add another" is clicked: select2 leaves an empty box's inner
    # textbox without a name (axe-core: aria-input-field-name).
    extra = 0
    autocomplete_fields = ["player"]  # by name or handle, as typed
    fields = ["player", "joined_round", "dropped_after_round", "checked_in_at"]
    verbose_name = "player entered"
    verbose_name_plural = "Players entered (type a name to find a player)"

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "player":
            kwargs["widget"] = PlayerByName(db_field, self.admin_site, using=kwargs.get("using"))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


def table_state(table: Table, open_ids: set[int]) -> tuple[str, str]:
    """(state, what the desk says of it) for one table of a round."""
    if table.game is not None:
        return "verified", "Verified result (from its log)"
    if table.log_id is not None:
        # The table's heading names it: its game is "its game", told by no log number.
        if table.log.status in (GameLog.Status.REJECTED, GameLog.Status.ERROR):
            reason = error_in_words(read_log(table.log.raw), table.log.error)
            return "rejected", f"Its game was rejected: {reason or table.log.get_status_display()}"
        if table.log.status == GameLog.Status.VERIFIED:
            return "confirming", "Its game is verified; waiting for its players"
        return "verifying", "Its game is attached; being verified"
    if table.result_kind == "unverified":
        return "by-hand", "Result entered by hand (unverified)"
    if table.pk in open_ids:
        return "open", "Waiting for a result"
    return "closed", "No result, and the table is closed"


def desk_rounds(tournament: Tournament) -> list[dict[str, Any]]:
    """The rounds of a tournament as the desk shows them, latest first."""
    open_ids = set(open_tables().filter(round__tournament=tournament).values_list("pk", flat=True))
    rounds = []
    for round_ in tournament.rounds.order_by("-number").prefetch_related(
        "tables__seats__player", "tables__log__game"
    ):
        tables = []
        for table in round_.tables.all():
            state, says = table_state(table, open_ids)
            seats = sorted(table.seats.all(), key=lambda seat: seat.seat)
            tables.append({"table": table, "seats": seats, "state": state, "says": says})
        seating = reverse("tournaments:seating", args=[tournament.slug, round_.number])
        rounds.append({"round": round_, "tables": tables, "seating_url": seating})
    return rounds


@admin.register(Tournament)
class TournamentAdmin(RunByOrganisers, admin.ModelAdmin):
    list_display = ["name", "game_type", "ruleset", "format", "starts_on", "status", "entrants"]
    list_filter = ["status", "game_type", "format"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    inlines = [RegistrationInline]
    actions = ["seat_round"]
    change_form_template = "admin/tournaments/tournament/change_form.html"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(entrant_count=Count("registrations"))

    def get_readonly_fields(self, request: HttpRequest, obj: Tournament | None = None):
        fixed = ["seed"]
        if not runs_every_tournament(request.user):
            fixed.append("organisers")  # who runs a tournament is decided by staff
        if obj is not None and obj.rounds.exists():
            fixed += ["game_type", "ruleset"]  # its tables' logs play these
        return fixed

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        if not change and not runs_every_tournament(request.user):
            form.instance.organisers.add(request.user)  # else its maker could not open it

    @admin.display(description="Players", ordering="entrant_count")
    def entrants(self, tournament: Tournament) -> int:
        return tournament.entrant_count

    def get_urls(self):
        def desk(view, name: str):
            wrapped = self.admin_site.admin_view(require_POST(view))
            return path(f"<path:object_id>/{name}/", wrapped, name=f"tournaments_tournament_{name}")

        return [
            desk(self.seat_next_round_view, "seat-next-round"),
            desk(self.attach_log_view, "attach-log"),
            desk(self.hand_result_view, "hand-result"),
            desk(self.remove_rejected_log_view, "remove-rejected-log"),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        tournament = self.get_object(request, unquote(object_id))
        if tournament is not None:
            rounds = desk_rounds(tournament)
            extra_context = {
                **(extra_context or {}),
                "desk_rounds": rounds,
                "latest_seating_url": rounds[0]["seating_url"] if rounds else None,
                "may_run": self.has_change_permission(request, tournament),
            }
        return super().change_view(request, object_id, form_url, extra_context)

    # --- the desk's buttons: each POSTs here, says what happened, and comes back ----------

    def tournament_for(self, request: HttpRequest, object_id: str) -> Tournament:
        tournament = self.get_object(request, unquote(object_id))
        if tournament is None:
            raise Http404(f"there is no tournament {object_id} that you run")
        if not self.has_change_permission(request, tournament):
            raise PermissionDenied
        return tournament

    def table_for(self, request: HttpRequest, tournament: Tournament) -> Table:
        table_id = request.POST.get("table", "")
        if not table_id.isdigit():
            raise Http404(f"no table {table_id!r} in {tournament}")
        return get_object_or_404(
            Table.objects.select_related("round__tournament"),
            pk=int(table_id),
            round__tournament=tournament,
        )

    def back_to(self, tournament: Tournament, table: Table | None = None) -> HttpResponse:
        url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
        return HttpResponseRedirect(f"{url}#table-{table.pk}" if table else url)

    def seat_next_round_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        tournament = self.tournament_for(request, object_id)
        self.seat(request, tournament)
        return self.back_to(tournament)

    def seat(self, request: HttpRequest, tournament: Tournament) -> None:
        try:
            round_ = seat_next_round(tournament)
        except SeatingError as error:
            self.message_user(
                request, f"{tournament}: the next round is not seated: {error}.", messages.ERROR
            )
            return
        sizes = [t.seats.count() for t in round_.tables.all()]
        self.message_user(
            request,
            f"{tournament}: round {round_.number} seated at {len(sizes)} tables "
            f"(sizes {', '.join(map(str, sizes))}).",
            messages.SUCCESS,
        )

    def refuse(self, request: HttpRequest, table: Table, what: str, why: str) -> None:
        self.message_user(request, f"{table}: {what}: {why}.", messages.ERROR)

    def attach_log_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        tournament = self.tournament_for(request, object_id)
        table = self.table_for(request, tournament)
        upload = request.FILES.get("log_file")
        raw = upload.read() if upload else request.POST.get("log_text", "").strip()
        if not raw:
            self.refuse(request, table, "no log attached", "choose a log file or paste a log")
            return self.back_to(tournament, table)
        refusal = table_refusal(table, raw, request.user) or replay_refusal(raw)
        if refusal is not None:
            self.refuse(request, table, "the log is not attached", refusal.message)
            return self.back_to(tournament, table)
        try:
            log = attach_log(table, raw, user=request.user, filename=upload.name if upload else "")
        except IntakeError as refused:  # the log's intake checks, or a race since the above
            self.refuse(request, table, "the log is not attached", refused.message)
            return self.back_to(tournament, table)
        log.refresh_from_db()
        if log.status == GameLog.Status.VERIFIED:
            self.message_user(request, f"{table}: its game is attached and verified.")
        else:
            self.message_user(request, f"{table}: its game is attached; it is being verified.")
        return self.back_to(tournament, table)

    def hand_result_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        tournament = self.tournament_for(request, object_id)
        table = self.table_for(request, tournament)
        try:
            placements = posted_placements(request.POST)
        except ValueError as error:
            self.refuse(request, table, "no result entered", str(error))
            return self.back_to(tournament, table)
        try:
            enter_hand_result(table, placements, user=request.user)
        except TableRefused as refusal:
            self.refuse(request, table, "no result entered", refusal.message)
            return self.back_to(tournament, table)
        self.message_user(request, f"{table}: result entered by hand (unverified).")
        return self.back_to(tournament, table)

    def remove_rejected_log_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        tournament = self.tournament_for(request, object_id)
        table = self.table_for(request, tournament)
        try:
            detach_rejected_log(table, user=request.user)
        except TableRefused as refusal:
            self.refuse(request, table, "nothing removed", refusal.message)
        else:
            self.message_user(request, f"{table}: the rejected log is removed; it is open again.")
        return self.back_to(tournament, table)

    @admin.action(description="Seat next round")
    def seat_round(self, request, queryset) -> None:
        for tournament in queryset:
            self.seat(request, tournament)


def posted_placements(data: Any) -> dict[int, tuple[int | None, float | None]]:
    """The hand result of a desk form: rank-<seat id> and score-<seat id> fields."""
    placements: dict[int, tuple[int | None, float | None]] = {}
    for key in data:
        prefix, _, seat_id = key.partition("-")
        if prefix != "rank" or not seat_id.isdigit():
            continue
        rank_text = data.get(key, "").strip()
        score_text = data.get(f"score-{seat_id}", "").strip()
        try:
            rank = int(rank_text) if rank_text else None
        except ValueError:
            raise ValueError(f"a placement is a whole number, not {rank_text!r}") from None
        try:
            score = float(score_text) if score_text else None
        except ValueError:
            raise ValueError(f"a score is a number, not {score_text!r}") from None
        placements[int(seat_id)] = (rank, score)
    return placements


class TableSeatFormSet(LabelledFormSet):
    """The hand result of a table's page, checked as the desk checks it
    (tournaments.services.results.hand_result_refusal)."""

    submitter = None  # the signed-in user, set by TableSeatInline.get_formset

    def placements(self) -> dict[int, tuple[int | None, float | None]]:
        return {
            form.instance.pk: (
                form.cleaned_data.get("hand_rank"),
                form.cleaned_data.get("hand_score"),
            )
            for form in self.forms
            if form.instance.pk and hasattr(form, "cleaned_data")
        }

    def entered(self) -> bool:
        return any(form.has_changed() for form in self.forms)

    def clean(self) -> None:
        super().clean()
        if self.entered():
            refusal = hand_result_refusal(self.instance, self.placements(), self.submitter)
            if refusal is not None:
                raise ValidationError(refusal.message)


class TableSeatInline(OrganisersInline, LabelledInline, admin.TabularInline):
    model = TableSeat
    formset = TableSeatFormSet
    tournament_path = "round__tournament"
    extra = 0
    fields = ["seat", "player", "opening_bidder", "hand_rank", "hand_score"]
    readonly_fields = ["seat", "player", "opening_bidder"]
    can_delete = False

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        formset.submitter = request.user
        return formset

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # the seats are drawn with the round


class TableForm(forms.ModelForm):
    """Attach the table's log: checked like every other way of giving a table its result
    (tournaments.services.results.table_refusal), and replayed as the tournament's page
    does, so a wrong log is a form error and nothing is stored."""

    log_file = forms.FileField(
        required=False, help_text="Attach the table's game log (.json); it is then verified."
    )
    log_text = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 4}), help_text="…or paste it here."
    )
    submitter = None  # the signed-in user, set by TableAdmin.get_form

    class Meta:
        model = Table
        fields = []

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("log_file")
        raw = upload.read() if upload else cleaned.get("log_text", "").strip()
        cleaned["raw_log"] = raw or None
        if raw:
            refusal = table_refusal(self.instance, raw, self.submitter) or replay_refusal(raw)
            if refusal is not None:
                raise ValidationError(refusal.message)
        return cleaned


@admin.register(Table)
class TableAdmin(GameNamedInWords, RunByOrganisers, admin.ModelAdmin):
    """A table on its own page; the tournament's page gives tables their results too."""

    tournament_path = "round__tournament"
    form = TableForm
    list_display = ["__str__", "result_kind", "game"]
    list_filter = ["round__tournament"]
    readonly_fields = ["game"]
    inlines = [TableSeatInline]

    def has_add_permission(self, request) -> bool:
        return False  # tables come from "seat next round"

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        form.submitter = request.user
        return form

    def save_model(self, request, obj, form, change) -> None:
        raw = form.cleaned_data.get("raw_log")
        if not raw:
            return  # nothing else of a table is edited here
        name = form.cleaned_data["log_file"].name if form.cleaned_data.get("log_file") else ""
        try:
            attach_log(obj, raw, user=request.user, filename=name)
        except TableRefused as refusal:  # lost a race since the form was checked
            self.message_user(request, refusal.message, messages.ERROR)
            return
        obj.refresh_from_db()
        self.message_user(request, f"Log attached to {obj}; it is being verified.")

    def save_formset(self, request, form, formset, change) -> None:
        # The seats change only through the service; the change message reads these.
        formset.new_objects, formset.deleted_objects = [], []
        formset.changed_objects = []
        if not formset.entered():
            return
        try:
            enter_hand_result(form.instance, formset.placements(), user=request.user)
        except TableRefused as refusal:  # lost a race since the form was checked
            self.message_user(request, refusal.message, messages.ERROR)
            return
        formset.changed_objects = [(seat.instance, ["hand_rank", "hand_score"]) for seat in formset]
