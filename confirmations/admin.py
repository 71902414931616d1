"""Staff resolve disputed (or still pending) games: accept makes a game count, reject sets
it aside for good. Both are admin actions on the list and buttons on a review's page."""

from __future__ import annotations

from django.contrib import admin, messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html

from confirmations import services
from confirmations.models import Confirmation, Review
from games.admin_columns import GameNamedInWords
from games.names import stored_log_name


class ConfirmationInline(admin.TabularInline):
    model = Confirmation
    extra = 0
    can_delete = False
    fields = ["player", "answer", "answered_at", "at_table", "disputed_moment", "reason"]
    readonly_fields = fields

    @admin.display(description="disputed step")
    def disputed_moment(self, confirmation: Confirmation) -> str:
        """The disputed step in words, as a link opening the replay there."""
        if confirmation.event is None:
            return "—"
        url = reverse("games:log", args=[confirmation.review.log_id])
        return format_html(
            '<a href="{}#event-{}" class="disputed-moment">{}: open the replay there</a>',
            url,
            confirmation.event,
            services.disputed_moment(confirmation),
        )

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # players' answers are theirs

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff


@admin.register(Review)
class ReviewAdmin(GameNamedInWords, admin.ModelAdmin):
    list_display = ["game", "status", "counted_because", "opened_at", "deadline", "resolved_by"]
    list_filter = ["status", "counted_because"]
    search_fields = ["log__pk", "confirmations__player__handle"]
    fields = [
        "game",
        "status",
        "counted_because",
        "opened_at",
        "deadline",
        "resolved_at",
        "resolved_by",
        "note",
    ]
    readonly_fields = [f for f in fields if f != "note"]
    inlines = [ConfirmationInline]
    actions = ["accept_games", "reject_games"]
    change_form_template = "admin/confirmations/review/change_form.html"

    def has_add_permission(self, request) -> bool:
        return False  # reviews open when games are verified

    # Every staff member resolves disputes, as staff may submit and delete any game: no
    # model permission to hand out first.
    def has_module_permission(self, request) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None) -> bool:
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None) -> bool:
        return self.has_module_permission(request)

    @admin.action(description="Accept: the selected games count")
    def accept_games(self, request, queryset) -> None:
        for review in queryset:
            services.accept(review.pk, request.user)
        self.message_user(request, f"{queryset.count()} game(s) accepted.", messages.SUCCESS)

    @admin.action(description="Reject: the selected games never count")
    def reject_games(self, request, queryset) -> None:
        for review in queryset:
            try:
                services.reject(review.pk, request.user)
            except services.ConfirmationError as error:
                self.message_user(request, error.message, messages.ERROR)
            else:
                self.message_user(
                    request, f"{stored_log_name(review.log)}: rejected.", messages.SUCCESS
                )

    def response_change(self, request, obj: Review):
        """The Accept / Reject buttons of a review's page (the note is saved first)."""
        for button, decide in (("_accept", services.accept), ("_reject", services.reject)):
            if button in request.POST:
                try:
                    decide(obj.pk, request.user, obj.note)
                except services.ConfirmationError as error:
                    self.message_user(request, error.message, messages.ERROR)
                else:
                    verb = "accepted" if button == "_accept" else "rejected"
                    name = stored_log_name(obj.log)
                    self.message_user(request, f"{name}: {verb}.", messages.SUCCESS)
                return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)
