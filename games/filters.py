"""Filters for the log and game lists (API and pages): game, player, tournament, status, date."""

from __future__ import annotations

import django_filters
from django import forms
from django.db.models import (
    Case,
    CharField,
    Exists,
    F,
    OuterRef,
    QuerySet,
    Subquery,
    Value,
    When,
)

from common.widgets import QuickNumberInput, QuickSelect, QuickTextInput
from engines.registry import GAMES, get_game
from games.models import Game, GameLog, GameSeat, Source
from games.services.table_desk import table_desk
from players.models import Player

GAME_CHOICES = [(game_id, get_game(game_id).title) for game_id in GAMES]

# Where a game stands with its players' confirmation. A game that does not count has been set
# aside by its log's review, which the confirmations app (above games) keeps: it is read
# through the reverse relation `review`, as GameLog.visible_to does, never imported. The
# values are the review's statuses, and "counts" for every game that counts.
COUNTS, PENDING, DISPUTED, REJECTED = "counts", "pending", "disputed", "rejected"
CONFIRMATION_CHOICES = [
    (COUNTS, "Counts"),
    (PENDING, "Waiting for confirmation"),
    (DISPUTED, "Disputed"),
    (REJECTED, "Rejected by staff"),
]


def confirmation_of(game: str = "") -> Case:
    """The confirmation state of the game at path `game` ("" for a Game, "game__" for a
    seat), as an expression to annotate a queryset with."""
    return Case(
        When(**{f"{game}counts": True}, then=Value(COUNTS)),
        default=F(f"{game}log__review__status"),
        output_field=CharField(),
    )


def with_confirmation(games: QuerySet) -> QuerySet:
    """Games annotated with `confirmation` (once: the API's queryset may have it already)."""
    if "confirmation" in games.query.annotations:
        return games
    return games.annotate(confirmation=confirmation_of())


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


def seated_games(handle: str) -> QuerySet:
    """The ids of the games that seat the player of this handle (none for an unknown one)."""
    player = Subquery(Player.objects.filter(handle=handle).order_by().values("pk")[:1])
    return GameSeat.objects.filter(player_id=player).order_by().values("game_id")


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
        method="by_tournament", label="Tournament", help_text="A tournament's id."
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
        """The logs of the player's games: those whose game is among the player's seats' games,
        read from games_seats_of_player (it leads with the player), a semi-join in which a
        game where a merge seated the player twice is found once. Joining the seats listed
        such a game twice, and the DISTINCT that hid it sorted every row (issue 25)."""
        return queryset.filter(game__in=seated_games(value))

    def by_tournament(self, queryset: QuerySet, name: str, value: int) -> QuerySet:
        # The tables are the tournaments' (games.services.table_desk): their desk names the logs.
        return queryset.filter(pk__in=table_desk().logs_of_tournament(value))


class GameFilter(django_filters.FilterSet):
    # The games page draws its filter bar on every request: widgets without templates
    # (common.widgets, the same bytes).
    game = django_filters.ChoiceFilter(
        field_name="game_type",
        choices=GAME_CHOICES,
        label="Game",
        empty_label="Any game",
        widget=QuickSelect,
    )
    player = HandleFilter(
        method="by_player",
        label="Player",
        help_text="A player's handle: games they played.",
        widget=QuickTextInput,
    )
    tournament = IdFilter(
        method="by_tournament",
        label="Tournament",
        help_text="A tournament's id.",
        widget=QuickNumberInput,
    )
    source = django_filters.ChoiceFilter(
        choices=Source.choices,
        label="Source",
        empty_label="Any source",
        widget=QuickSelect,
    )
    date = django_filters.DateFromToRangeFilter(
        field_name="played_at__date",
        label="Played between",
        help_text="Date played range: date_after, date_before.",
    )
    confirmation = django_filters.ChoiceFilter(
        choices=CONFIRMATION_CHOICES,
        method="by_confirmation",
        label="Confirmation",
        empty_label="Any",
        widget=QuickSelect,
        help_text="counts, or not yet: pending (waiting for its players' confirmation), "
        "disputed (staff decide), rejected.",
    )

    class Meta:
        model = Game
        fields = ["game", "player", "tournament", "source", "date", "confirmation"]

    def by_player(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        """The player's games, each with its seat's copy of played_at (`seat_played_at`), by
        which the list's pagination reads a page from games_seats_of_player rather than
        sorting all of them (GameCursorPagination.get_ordering). A game where a merge seated
        the player twice is listed once, by their first seat (no DISTINCT: it sorts every
        row)."""
        player = Subquery(Player.objects.filter(handle=value).order_by().values("pk")[:1])
        seated = queryset.filter(seats__player_id=player).annotate(
            seat_played_at=F("seats__played_at"),
            seat_player=F("seats__player_id"),
            seat_number=F("seats__seat"),
        )
        earlier = GameSeat.objects.filter(
            game_id=OuterRef("pk"),
            player_id=OuterRef("seat_player"),
            seat__lt=OuterRef("seat_number"),
        )
        return seated.filter(~Exists(earlier))

    def by_tournament(self, queryset: QuerySet, name: str, value: int) -> QuerySet:
        return queryset.filter(log_id__in=table_desk().logs_of_tournament(value))

    def by_confirmation(self, queryset: QuerySet, name: str, value: str) -> QuerySet:
        if value == COUNTS:
            return queryset.filter(counts=True)
        return queryset.filter(counts=False, log__review__status=value)

    def filter_queryset(self, queryset: QuerySet) -> QuerySet:
        """Every listed game says where it stands (`confirmation`)."""
        return with_confirmation(super().filter_queryset(queryset))
