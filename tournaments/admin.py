from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Count

from games.services.errors import TableRefused
from players import admin as players_admin
from players.models import Player
from tournaments.models import Registration, Round, Table, TableSeat, Tournament
from tournaments.services.merge import merge_players
from tournaments.services.results import attach_log, table_refusal
from tournaments.services.seating import SeatingError, seat_next_round

# Merging moves tournament entries and seats too, so the action joins the players' admin
# from up here (players knows nothing of tournaments).
admin.site.unregister(Player)


@admin.register(Player)
class PlayerAdmin(players_admin.PlayerAdmin):
    actions = [*players_admin.PlayerAdmin.actions, "merge_duplicates"]

    @admin.action(description="Merge the selected players (duplicates) into the oldest one")
    def merge_duplicates(self, request, queryset) -> None:
        players = list(queryset.order_by("created", "pk"))
        if len(players) < 2:
            self.message_user(request, "Select at least two players to merge.", messages.ERROR)
            return
        keep, duplicates = players[0], players[1:]
        try:
            moved = merge_players(keep, duplicates)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
            return
        self.message_user(
            request,
            f"Merged {len(duplicates)} player(s) into {keep}; {moved} game seat(s) moved.",
            messages.SUCCESS,
        )


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 1
    raw_id_fields = ["player"]
    fields = ["player", "joined_round", "dropped_after_round", "draw"]
    readonly_fields = ["draw"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game_type", "ruleset", "format", "starts_on", "status", "entrants"]
    list_filter = ["status", "game_type", "format"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["seed"]
    filter_horizontal = ["organisers"]
    inlines = [RegistrationInline]
    actions = ["seat_round"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(entrant_count=Count("registrations"))

    @admin.display(description="Players", ordering="entrant_count")
    def entrants(self, tournament: Tournament) -> int:
        return tournament.entrant_count

    @admin.action(description="Seat next round")
    def seat_round(self, request, queryset) -> None:
        for tournament in queryset:
            try:
                round_ = seat_next_round(tournament)
            except SeatingError as error:
                self.message_user(request, f"{tournament}: {error}", messages.ERROR)
                continue
            sizes = [t.seats.count() for t in round_.tables.all()]
            self.message_user(
                request,
                f"{tournament}: round {round_.number} seated at {len(sizes)} tables "
                f"(sizes {', '.join(map(str, sizes))}).",
                messages.SUCCESS,
            )


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "log"]
    readonly_fields = ["number", "log"]  # a result is attached on the table's own page
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "seated_at"]
    list_filter = ["tournament"]
    inlines = [TableInline]


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    fields = ["seat", "player", "opening_bidder", "hand_rank", "hand_score"]
    readonly_fields = ["seat", "player", "opening_bidder"]
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class TableForm(forms.ModelForm):
    """Attach the table's log: checked like every other way of giving a table its result
    (tournaments.services.results.table_refusal), so a wrong log is a form error."""

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
            refusal = table_refusal(self.instance, raw, self.submitter)
            if refusal is not None:
                raise ValidationError(refusal.message)
        return cleaned


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    form = TableForm
    list_display = ["__str__", "result_kind", "log"]
    list_filter = ["round__tournament"]
    readonly_fields = ["log"]
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
