"""The statistics pages' queries compiled to SQL once per shape, not once per request.

A page's sums over a cube are the same query for every visitor but for the values filtered
on (the game, the months, the band...); building and compiling it through the ORM took about
1 ms of CPU a query, five on the strategy page, where running it took a fifth of that
(issue 25). So each query is compiled once per shape (which view, which filters are set) with
a placeholder for each filtered value, and a request puts its own values in their places.
What comes back is what the ORM's values() gives: a dict per row, columns by name, each
value through the ORM's own converters (a sum read as a float or an int).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from typing import Any

from django.core.exceptions import EmptyResultSet
from django.db import connections, router
from django.db.models import Model, QuerySet

from common.compiled import converted
from stats.filters import StatsFilter

# Placeholders no page filters on, each of its field's type and range (a small integer: the
# ORM refuses an out-of-range one before compiling).
SLOTS: dict[str, Any] = {
    "game": "slot:game",
    "source": "slot:source",
    "players": 32_123,
    "ruleset": "slot:ruleset",
    "band": "slot:band",
    "strategy": "slot:strategy",
    "since": datetime.date(1000, 1, 1),
    "until": datetime.date(1000, 2, 1),
}
SLOT_NAMES = {value: name for name, value in SLOTS.items()}
# By query, view, shape and database: a few hundred at most (the filters set are the shape).
COMPILED: dict[tuple, tuple[str, list, list[str], list] | None] = {}


class Placeholders:
    """Stands for a StatsFilter in StatsFilter.apply: the same filters set, each value a
    placeholder; "all human games" is a shape of its own (two sources), so it stays."""

    def __init__(self, filters: StatsFilter) -> None:
        self.filters = filters

    game_id = SLOTS["game"]

    def value(self, name: str) -> Any:
        real = self.filters.value(name)
        if real is None or (name == "source" and real == "human"):
            return real
        return SLOTS[name]


def shape(filters: StatsFilter) -> tuple:
    return tuple(
        (name, "human" if name == "source" and filters.value(name) == "human" else "set")
        for name in SLOTS
        if name != "game" and filters.value(name) is not None
    )


def real_value(filters: StatsFilter, name: str) -> Any:
    """What StatsFilter.apply passes for this filter (months: their first day)."""
    if name == "game":
        return filters.game_id
    value = filters.value(name)
    return value.replace(day=1) if name in ("since", "until") else value


def rows(
    filters: StatsFilter, cube: type[Model], name: str, query: Callable[[QuerySet], QuerySet]
) -> list[dict[str, Any]]:
    """query(filters.rows(cube)) as values() dicts: `query` adds the values, sums and order
    (never a filter value of its own), and `name` names it, one name per query."""
    view = filters.view(cube)
    alias = router.db_for_read(view)
    if connections[alias].vendor != "postgresql":
        # SQLite's adapter turns a date into text before the query is compiled, so a month's
        # placeholder would be compiled in as a value; the embedded default needs no speed.
        return list(query(filters.rows(cube)))
    key = (name, view, shape(filters), alias)
    if key not in COMPILED:
        placeholders = StatsFilter.apply(Placeholders(filters), view.objects.all())
        COMPILED[key] = compiled(query(placeholders), alias)
    found = COMPILED[key]
    if found is None:
        return list(query(filters.rows(cube)))
    sql, params, names, converters = found
    values = [in_place_of(p, filters) if is_slot(p) else p for p in params]
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
        found_rows = cursor.fetchall()
    return [
        dict(zip(names, row, strict=True)) for row in converted(found_rows, converters, connection)
    ]


def is_slot(param: Any) -> bool:
    try:
        return param in SLOT_NAMES and isinstance(param, type(SLOTS[SLOT_NAMES[param]]))
    except TypeError:  # a list (an IN lookup): no placeholder
        return False


def in_place_of(slot: Any, filters: StatsFilter) -> Any:
    """The request's value for a placeholder, typed as the ORM typed it (psycopg's Int2 for
    a small integer column, so PostgreSQL compares it as one)."""
    value = real_value(filters, SLOT_NAMES[slot])
    kind = type(slot)
    return value if kind is type(SLOTS[SLOT_NAMES[slot]]) else kind(value)


def compiled(queryset: QuerySet, alias: str) -> tuple[str, list, list[str], list] | None:
    """The values() query's SQL, parameters (placeholders among them), column names and the
    converters of its columns; None for a query the ORM answers without the database."""
    query = queryset.query
    compiler = query.get_compiler(alias)
    try:
        sql, params = compiler.as_sql()
    except EmptyResultSet:  # the ORM answers such a query without asking the database
        return None
    converters = compiler.get_converters([c[0] for c in compiler.select[: compiler.col_count]])
    names = [*query.extra_select, *query.values_select, *query.annotation_select]
    return sql, list(params), names, list(converters.items())
