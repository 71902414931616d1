"""The filter bar of the statistics pages, turned into conditions on cube rows."""

from __future__ import annotations

import datetime

from django import forms
from django.db.models import Model, Q, QuerySet

from engines.registry import GAMES, get_game
from stats.models import BY_MONTH_LIVE, LIVE
from stats.services.bands import ALL_BANDS

SOURCES = (
    ("", "All games"),
    ("tournament", "Tournament"),
    ("human", "All human (tournament and casual)"),
    ("simulated", "Simulated"),
)
DEFAULT_MIN_SAMPLE = 30


class StatsFilter(forms.Form):
    game = forms.ChoiceField(choices=[(g, get_game(g).title) for g in GAMES], required=False)
    source = forms.ChoiceField(choices=SOURCES, required=False)
    players = forms.TypedChoiceField(
        choices=[("", "Any"), (2, "2"), (3, "3"), (4, "4"), (5, "5")],
        coerce=int,
        required=False,
        empty_value=None,
        label="Players",
    )
    ruleset = forms.CharField(max_length=40, required=False)
    strategy = forms.CharField(max_length=100, required=False)
    band = forms.ChoiceField(
        choices=[("", "Any"), *((b, b) for b in ALL_BANDS)], required=False, label="Rating band"
    )
    since = forms.DateField(
        required=False, input_formats=["%Y-%m"], widget=forms.DateInput(attrs={"type": "month"})
    )
    until = forms.DateField(
        required=False, input_formats=["%Y-%m"], widget=forms.DateInput(attrs={"type": "month"})
    )
    min_sample = forms.IntegerField(
        min_value=1, max_value=100_000, required=False, label="Minimum sample"
    )

    def __init__(self, data=None, *, default_game: str = "deep-vents", **kwargs) -> None:
        super().__init__(data or None, **kwargs)
        self.default_game = default_game
        if not self.is_bound:
            self.cleaned_data = {}
        elif not self.is_valid():
            # A bad field is shown with its error and ignored; the rest still filters.
            self.cleaned_data = {k: v for k, v in self.cleaned_data.items() if v not in ("", None)}

    def value(self, name: str):
        return self.cleaned_data.get(name) or None

    @property
    def game_id(self) -> str:
        return self.value("game") or self.default_game

    @property
    def threshold(self) -> int:
        return self.value("min_sample") or DEFAULT_MIN_SAMPLE

    def view(self, cube: type[Model]) -> type[Model]:
        """The view the cube's rows are read from: its month-free rollup when no date is
        set, its strategy-free one by month (where it has one) when a date is set but no
        strategy. All are live views, which add the deltas not folded in yet (stats.models),
        so pages are exact: sum them, a key may have several rows."""
        cube_view, rollup_view = LIVE[cube]
        if not (self.value("since") or self.value("until")):
            return rollup_view
        if self.value("strategy") is None and cube in BY_MONTH_LIVE:
            return BY_MONTH_LIVE[cube]
        return cube_view

    def rows(self, cube: type[Model]) -> QuerySet:
        """The cube's rows under the filters (from `view`)."""
        return self.apply(self.view(cube).objects.all())

    def apply(self, rows: QuerySet, *, with_strategy: bool = True) -> QuerySet:
        """Cube rows of the chosen game, narrowed by every filter that is set."""
        rows = rows.filter(game_type=self.game_id)
        source = self.value("source")
        if source == "human":
            rows = rows.filter(Q(source="human") | Q(source="tournament"))
        elif source:
            rows = rows.filter(source=source)
        for name, column in (("players", "player_count"), ("ruleset", "ruleset"), ("band", "band")):
            if self.value(name) is not None:
                rows = rows.filter(**{column: self.value(name)})
        if with_strategy and self.value("strategy") is not None:
            rows = rows.filter(strategy=self.value("strategy"))
        since, until = self.value("since"), self.value("until")
        if since:
            rows = rows.filter(month__gte=since.replace(day=1))
        if until:
            rows = rows.filter(month__lte=until.replace(day=1))
        return rows

    def describe(self) -> str:
        """The filters in words, for page headings and figure titles."""
        parts = [get_game(self.game_id).title]
        labels = dict(SOURCES)
        if self.value("source"):
            parts.append(labels[self.value("source")].lower())
        if self.value("players"):
            parts.append(f"{self.value('players')} players")
        for name in ("ruleset", "strategy", "band"):
            if self.value(name):
                parts.append(f"{name} {self.value(name)}")
        for name, word in (("since", "from"), ("until", "to")):
            value: datetime.date | None = self.value(name)
            if value:
                parts.append(f"{word} {value:%Y-%m}")
        return ", ".join(parts)
