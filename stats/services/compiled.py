"""The statistics pages' queries compiled once per shape (common.compiled), not once per
request.

A page's sums over a cube are the same query for every visitor but for the values filtered
on (the game, the months, the band...). So each query is compiled once per shape (which
view, which filters are set) with a slot for each filtered value, and a request puts its own
values in their places. What comes back is what the ORM's values() gives: a dict per row,
columns by name, each value through the ORM's own converters (a sum read as a float or an
int).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Any

from django.db.models import Model, QuerySet

from common import compiled as common_compiled
from common.compiled import Compiled, compile_once
from stats.filters import StatsFilter, keeps_ruleset
from stats.models import LIVE, PACKED_SCORE_BINS_OF_VIEW, ScoreCube, ScoreCubePacked

# A page's query as `rows` takes it: the cube, the query's name, what it adds to the rows.
Query = tuple[type[Model], str, Callable[[QuerySet], QuerySet]]

# Slots no page filters on, each of its field's type and range (a small integer: the ORM
# refuses an out-of-range one before compiling).
SLOTS: dict[str, Any] = {
    "game": "slot:game",
    "source": "slot:source",
    "players": 32_123,
    "ruleset": "slot:ruleset",
    "band": "slot:band",
    "strategy": "slot:strategy",
    "since": datetime.date(1000, 1, 1),
    "until": datetime.date(1000, 2, 1),
    "rulesets": ["slot:rulesets"],  # StatsFilter.every_ruleset, sent as one array
}


class Placeholders:
    """Stands for a StatsFilter in StatsFilter.apply: the same filters set, each value a
    slot; "all human games" is a shape of its own (two sources), so it stays."""

    def __init__(self, filters: StatsFilter, slots: dict[str, Any]) -> None:
        self.filters = filters
        self.slots = slots
        self.game_id = slots["game"]

    def value(self, name: str) -> Any:
        return self.slots.get(name, self.filters.value(name))

    def every_ruleset(self) -> list[str] | None:
        return self.slots.get("rulesets")


def slotted(filters: StatsFilter) -> dict[str, Any]:
    """The values a query of these filters' shape takes in slots, by slot: the game, every
    filter set ("all human games" but by its shape) and the rulesets where it names them."""
    return {
        name: value
        for name, value in ((name, real_value(filters, name)) for name in SLOTS)
        if not (value is None or (name == "source" and value == "human"))
    }


def real_value(filters: StatsFilter, name: str) -> Any:
    """What StatsFilter.apply passes for this filter (months: their first day)."""
    if name == "game":
        return filters.game_id
    if name == "rulesets":
        return filters.every_ruleset()
    value = filters.value(name)
    return value.replace(day=1) if value is not None and name in ("since", "until") else value


def view_of(filters: StatsFilter, table: type[Model]) -> type[Model]:
    """What a query of `table` reads under these filters: a cube's view (StatsFilter.view);
    for the score cube's packed bins, those of the score cube's view; any other table (a
    cube's deltas) itself."""
    if table in LIVE:
        return filters.view(table)
    if table is ScoreCubePacked:
        return PACKED_SCORE_BINS_OF_VIEW[filters.view(ScoreCube)]
    return table


def compiled_for(
    filters: StatsFilter, cube: type[Model], name: str, query: Callable[[QuerySet], QuerySet]
) -> Compiled | None:
    """The query compiled for these filters' shape (None where the ORM answers it)."""
    view = view_of(filters, cube)
    values = slotted(filters)
    if not keeps_ruleset(view):
        values.pop("rulesets", None)
    human = filters.value("source") == "human"
    return compile_once(
        (name, view, tuple(values), human),
        view,
        lambda **slots: query(StatsFilter.apply(Placeholders(filters, slots), view.objects.all())),
        {n: SLOTS[n] for n in values},
    )


def rows(
    filters: StatsFilter, cube: type[Model], name: str, query: Callable[[QuerySet], QuerySet]
) -> list[dict[str, Any]]:
    """query(filters.rows(cube)) as values() dicts: `query` adds the values, sums and order
    (never a filter value of its own), and `name` names it, one name per query. Rows that
    `together` fetched for these filters under this name are given once, without asking."""
    fetched = getattr(filters, FETCHED, None)
    if fetched and name in fetched:
        return fetched.pop(name)
    found = compiled_for(filters, cube, name, query)
    if found is None:
        return list(query(filters.apply(view_of(filters, cube).objects.all())))
    return found.dicts(slotted(filters))


# The attribute of a StatsFilter holding the rows `together` fetched, by query name.
FETCHED = "_fetched_rows"


def together(filters: StatsFilter, queries: Sequence[Query]) -> None:
    """Fetch the rows of several queries of a page (as `rows` takes them) in one statement
    (common.compiled.together), kept on the filters until `rows` asks for each: a page's
    queries make one round trip, not one each (issue 25). Where any of them is not compiled
    (SQLite; a query the ORM answers alone) nothing is fetched: each is asked alone."""
    found = [compiled_for(filters, cube, name, query) for cube, name, query in queries]
    if len(found) < 2 or any(query is None for query in found):
        return
    fetched = common_compiled.together(found, slotted(filters))
    setattr(filters, FETCHED, {name: r for (_, name, _), r in zip(queries, fetched, strict=True)})
