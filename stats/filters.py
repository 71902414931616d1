"""The filter bar of the statistics pages, turned into conditions on cube rows.

It offers only what the chosen game allows: its table sizes, rulesets and bots, from its
engine (engines/registry.py). Months are typed as YYYY-MM in a text box: <input type=month>
is a bare text box without a hint in desktop Firefox and Safari, which then sent whatever
was typed.
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Sequence
from functools import lru_cache

from django import forms
from django.db.models import Model, Q, QuerySet

from common.database import any_of
from common.widgets import QuickNumberInput, QuickSelect, QuickTextInput
from engines.registry import GAMES, get_game
from stats.models import BY_MONTH_LIVE, LIVE
from stats.services.bands import ALL_BANDS
from stats.services.intervals import PRIOR_GAMES

SOURCES = (
    ("", "All games"),
    ("tournament", "Tournament"),
    ("human", "All human (tournament and casual)"),
    ("simulated", "Simulated"),
)
DEFAULT_MIN_SAMPLE = 30
MONTH_PATTERN = r"[0-9]{4}-(0[1-9]|1[0-2])"
MONTH_HINT = "A month as YYYY-MM, e.g. 2026-03"
# Each filter but the dates, and the cube column it narrows.
FILTER_COLUMNS = (
    ("source", "source"),
    ("players", "player_count"),
    ("ruleset", "ruleset"),
    ("band", "band"),
    ("strategy", "strategy"),
)


class MonthField(forms.DateField):
    """A month typed as YYYY-MM, the browser checking the pattern before sending it."""

    default_error_messages = {"invalid": f"{MONTH_HINT}."}

    def __init__(self, **kwargs) -> None:
        attrs = {"pattern": MONTH_PATTERN, "placeholder": "YYYY-MM", "title": MONTH_HINT}
        widget = QuickTextInput(attrs={**attrs, "inputmode": "numeric", "size": 8})
        super().__init__(input_formats=["%Y-%m"], widget=widget, required=False, **kwargs)


class StatsFilter(forms.Form):
    # Quick widgets: the same HTML as Django's, drawn on every page without templates.
    game = forms.ChoiceField(required=False, widget=QuickSelect)
    source = forms.ChoiceField(choices=SOURCES, required=False, widget=QuickSelect)
    players = forms.TypedChoiceField(
        coerce=int, required=False, empty_value=None, widget=QuickSelect
    )
    ruleset = forms.ChoiceField(required=False, widget=QuickSelect)
    strategy = forms.ChoiceField(required=False, widget=QuickSelect)
    band = forms.ChoiceField(
        choices=[("", "Any"), *((b, b) for b in ALL_BANDS)],
        required=False,
        label="Rating band",
        widget=QuickSelect,
    )
    since = MonthField(label="From month")
    until = MonthField(label="To month")
    min_sample = forms.IntegerField(
        min_value=1,
        max_value=100_000,
        required=False,
        label="Minimum sample",
        widget=QuickNumberInput,
    )

    def __init__(self, data=None, *, games: Sequence[str] = tuple(GAMES), **kwargs) -> None:
        """`games`: the games the page offers, the first shown when none is chosen."""
        self.games = list(games)
        asked = data.get("game") if data else None
        self.chosen = asked if asked in self.games else self.games[0]
        # The fields as this game offers them, shared by every form of the same games and
        # game (a form copies the dict, not its fields: see SharedFields).
        self.base_fields = offered_fields(tuple(self.games), self.chosen)
        super().__init__(data or None, **kwargs)
        if not self.is_bound:
            self.cleaned_data = {}
        elif not self.is_valid():
            # A bad field is shown with its error and ignored; the rest still filters.
            self.cleaned_data = {k: v for k, v in self.cleaned_data.items() if v not in ("", None)}

    def chosen_game(self) -> str:
        """The game asked for when it is one of the page's, else the page's first."""
        return self.chosen

    @staticmethod
    def offer_what_the_game_allows(fields: dict[str, forms.Field], game) -> None:
        """Table sizes, rulesets and bots of the game only; anything else asked for is
        refused beside its field, saying what the game allows."""
        sizes = range(game.min_players, game.max_players + 1)
        players = fields["players"]
        players.choices = [("", "Any"), *((n, str(n)) for n in sizes)]
        players.error_messages["invalid_choice"] = (
            f"{game.title} is played by {game.min_players} to {game.max_players} players."
        )
        ruleset = fields["ruleset"]
        ruleset.choices = [("", "Any"), *((r, r) for r in sorted(game.rulesets()))]
        ruleset.error_messages["invalid_choice"] = f"{game.title} has no ruleset %(value)s."
        strategy = fields["strategy"]
        bots = sorted(game.strategies.items())
        strategy.choices = [("", "Any"), *((name, bot.title) for name, bot in bots)]
        strategy.error_messages["invalid_choice"] = f"{game.title} has no bot %(value)s."

    def clean(self) -> dict:
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and until < since:
            self.add_error("until", f"The range ends before it starts ({since:%Y-%m}).")
        return data

    def value(self, name: str):
        return self.cleaned_data.get(name) or None

    @property
    def game_id(self) -> str:
        return self.value("game") or self.chosen_game()

    @property
    def prior_games(self) -> int:
        """The strength of the prior win rates over par are shrunk with (intervals.py)."""
        return PRIOR_GAMES

    @property
    def threshold(self) -> int:
        return self.value("min_sample") or DEFAULT_MIN_SAMPLE

    def view(self, cube: type[Model]) -> type[Model]:
        """The view the cube's rows are read from: its month-free rollup when no date is
        set; with a date, the first of its tables by month (stats.models.BY_MONTH) that
        keeps every key filtered on, else the cube. All are live views, which add the
        deltas not folded in yet (stats.models), so pages are exact: sum them, a key may
        have several rows."""
        cube_view, rollup_view = LIVE[cube]
        if not (self.value("since") or self.value("until")):
            return rollup_view
        filtered = {column for name, column in FILTER_COLUMNS if self.value(name) is not None}
        for view in BY_MONTH_LIVE[cube]:
            if filtered <= {field.name for field in view._meta.concrete_fields}:
                return view
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
        rulesets = self.every_ruleset() if keeps_ruleset(rows.model) else None
        if rulesets is not None:
            rows = rows.filter(any_of("ruleset", rulesets))
        if with_strategy and self.value("strategy") is not None:
            rows = rows.filter(strategy=self.value("strategy"))
        since, until = self.value("since"), self.value("until")
        if since:
            rows = rows.filter(month__gte=since.replace(day=1))
        if until:
            rows = rows.filter(month__lte=until.replace(day=1))
        return rows

    def every_ruleset(self) -> list[str] | None:
        """The game's rulesets, where a query names them though no ruleset is chosen: where
        it reads months by source and table size. The unique key of a cube (and of its hex
        table by month) runs source, table size, ruleset, month: with every ruleset named
        its index reads only the months asked for, where otherwise the month index reads
        every row of the game in those months and filters most out (PostgreSQL 15 does not
        skip over an index's column): at 1M games, a year of the score cube under every
        filter read 29,000 rows for 4,200 (issue 25). The same rows: verification refuses
        a ruleset its engine does not name (Game.ruleset)."""
        if self.value("ruleset") is not None or not (self.value("since") or self.value("until")):
            return None
        if self.value("source") is None or self.value("players") is None:
            return None
        return sorted(get_game(self.game_id).rulesets())

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


def keeps_ruleset(view: type[Model]) -> bool:
    """Whether the view's rows have a ruleset (a table by month summed over rulesets has
    none, and its key leads with the month: StatsFilter.every_ruleset is not for it)."""
    return any(field.name == "ruleset" for field in view._meta.concrete_fields)


class SharedFields(dict):
    """A form's fields that forms share: Django deep-copies a form's fields for each form
    (0.3 ms of every statistics page, issue 25) so that one form may change its own; a
    StatsFilter changes its fields only while they are made (offered_fields), never after,
    so each form gets a dict of its own holding the same fields."""

    def __deepcopy__(self, memo: dict) -> dict:
        return dict(self)


@lru_cache(maxsize=64)
def offered_fields(games: tuple[str, ...], chosen: str) -> SharedFields:
    """StatsFilter's fields offering these games, and what the chosen one allows."""
    fields = copy.deepcopy(StatsFilter.base_fields)
    fields["game"].choices = [(g, get_game(g).title) for g in games]
    StatsFilter.offer_what_the_game_allows(fields, get_game(chosen))
    return SharedFields(fields)
