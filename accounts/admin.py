"""Claim requests in the admin: staff with the "change claim request" permission see and
decide all of them; an organiser (a staff account) those on names that played in their
tournaments. The list shows each name's games and tournaments; approve and refuse are
actions, run through accounts.services like the site's page."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from accounts import services
from accounts.models import ClaimRequest
from games.names import game_name
from players import claims


def at_the_desk(user: Any) -> bool:
    return user.is_active and user.is_staff and claims.may_see_claims(user)


@admin.register(ClaimRequest)
class ClaimRequestAdmin(admin.ModelAdmin):
    list_display = [
        "player", "user", "interim", "created", "games", "tournaments", "approved", "decided_by",
    ]  # fmt: skip
    list_filter = ["approved"]
    search_fields = ["player__display_name", "player__handle", "user__username"]
    fields = [
        "user", "player", "interim", "created", "games", "tournaments",
        "approved", "decided_by", "decided_at", "note",
    ]  # fmt: skip
    readonly_fields = fields  # decided by the actions, through accounts.services
    actions = ["approve_claims", "refuse_claims"]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        rows = super().get_queryset(request).select_related("player", "user", "interim")
        if claims.decides_every_claim(request.user):
            return rows
        return rows.filter(pk__in=services.decidable_by(request.user).values("pk"))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # accounts ask on their player page

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a decision is kept (the account can see it)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return at_the_desk(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return at_the_desk(request.user) and (
            obj is None or self.get_queryset(request).filter(pk=obj.pk).exists()
        )

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if obj is None:
            return at_the_desk(request.user)
        return at_the_desk(request.user) and claims.may_decide(request.user, obj)

    @admin.display(description="games")
    def games(self, claim: ClaimRequest) -> str:
        count, latest = services.games_of(claim.player, limit=5)
        # Each game by its name (where and when it was played), not its log's number.
        links = format_html_join(
            "; ", '<a href="{}">{}</a>', ((g.get_absolute_url(), game_name(g)) for g in latest)
        )
        everything = reverse("games:games") + f"?player={claim.player.handle}"
        return format_html('<a href="{}">{} games</a> {}', everything, count, links)

    @admin.display(description="tournaments")
    def tournaments(self, claim: ClaimRequest) -> str:
        return (
            format_html_join(
                ", ",
                '<a href="{}">{}</a>',
                ((t.get_absolute_url(), t.name) for t in services.tournaments_of(claim.player)),
            )
            or "none"
        )

    def decide_each(self, request: HttpRequest, queryset: QuerySet, action) -> None:
        for claim in queryset:
            try:
                decided = action(claim.pk, request.user)
            except services.ClaimRefused as refused:
                self.message_user(request, refused.message, messages.ERROR)
            else:
                self.message_user(request, f"{decided}: {decided.outcome}.", messages.SUCCESS)

    @admin.action(description="Approve: the account gets the name (its games join it)")
    def approve_claims(self, request: HttpRequest, queryset: QuerySet) -> None:
        self.decide_each(request, queryset, services.approve)

    @admin.action(description="Refuse: the name stays unclaimed")
    def refuse_claims(self, request: HttpRequest, queryset: QuerySet) -> None:
        self.decide_each(request, queryset, services.refuse)
