"""Filters for the log and game lists (API and pages): game, player, tournament, status, date."""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import QuerySet

from engines.registry import GAMES, get_game
from games.models import Game, GameLog, Source

GAME_CHOICES = [(game_id, get_game(game_id).title) for game_id in GAMES]


class IdFilter(django_filters.NumberFilter):
    """An id: a whole number a database integer can hold (NumberFilter would take 0.5)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", 2**63 - 1)
        super().__init__(*args, **kwargs)


class HandleFilter(django_filters.CharFilter):
    """A player's handle: slug characters only (no NUL or other bytes a database refuses)."""

    field_class = forms.SlugField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_unicode", True)
        super().__init__(*args, **kwargs)


class LogFilter(django_filters.FilterSet):
    game = django_filters.ChoiceFilter(
        field_name="game_type", choices=GAME_CHOICES, label="Game", empty_label="Any game"
    )
    status = django_filters.ChoiceFilter(
        choices=GameLog.Status.choices, label="Status", empty_label="Any status"
    )
    player = HandleFilter(
        method="by_player", help_text="A player's handle: logs of games they played."
    )
    tournament = IdFilter(
        field_name="table__round__tournament", label="Tournament", help_text="A tournament's id."
    )
    date = django_filters.DateFromToRangeFilter(
        field_name="created__date",
        label="Uploaded between",
        help_text="Upload date range: date_after, date_before.",
    )
    upload = IdFilter(field_name="upload", label="Upload")

    class Meta:
        model = GameLog
        fields = ["game", "status", "player", "tournament", "date", "upload"]

    def by_player(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(game__seats__player__handle=value).distinct()


class GameFilter(django_filters.FilterSet):
    game = django_filters.ChoiceFilter(
        field_name="game_type", choices=GAME_CHOICES, label="Game", empty_label="Any game"
    )
    player = HandleFilter(
        method="by_player", label="Player", help_text="A player's handle: games they played."
    )
    tournament = IdFilter(
        field_name="log__table__round__tournament",
        label="Tournament",
        help_text="A tournament's id.",
    )
    source = django_filters.ChoiceFilter(
        choices=Source.choices, label="Source", empty_label="Any source"
    )
    date = django_filters.DateFromToRangeFilter(
        field_name="played_at__date",
        label="Played between",
        help_text="Date played range: date_after, date_before.",
    )

    class Meta:
        model = Game
        fields = ["game", "player", "tournament", "source", "date"]

    def by_player(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        return queryset.filter(seats__player__handle=value).distinct()
