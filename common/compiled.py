"""A query compiled to SQL once per shape and run with each request's values in its places.

Building a queryset and compiling it through the ORM costs the same CPU on every request,
however few rows it reads: about 1 ms a query on the statistics pages, where running it took
a fifth of that, and a third of the leaderboard, whose trend query names a page's hundred
players (issue 25). Here a query is built once with a placeholder (a slot) for each value
that differs between requests, compiled, and kept; a request puts its own values in the
slots' places, typed as the ORM typed the slot, and gets the rows the ORM would give, each
column through the ORM's own converters: tuples (as values_list gives them) or dicts (as
values gives them).

On PostgreSQL only: SQLite's adapter turns some values into text before the query is
compiled (a month's slot would be compiled in as a value), and the embedded default needs
no speed; there `compile_once` gives None and the caller asks the ORM.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import psycopg
from django.core.exceptions import EmptyResultSet
from django.db import connections, router
from django.db.models import Model, QuerySet


@dataclass(frozen=True)
class Compiled:
    sql: str
    params: tuple  # the compiled parameters, the slots among them
    # (position in params, the slot's name, the type the ORM gave its value where it is not
    # the slot's own: psycopg's Int2 for a small integer column, so that the statement sent
    # is the ORM's to the letter)
    slots: tuple[tuple[int, str, type | None], ...]
    names: tuple[str, ...]  # the columns, as values() names them
    converters: tuple  # ((column, (functions, expression)), ...) as the ORM's compiler has them
    alias: str

    def params_of(self, values: dict[str, Any]) -> list:
        """The parameters, with `values` by slot name in the slots' places."""
        params = list(self.params)
        for position, name, kind in self.slots:
            params[position] = values[name] if kind is None else kind(values[name])
        return params

    def rows(self, values: dict[str, Any], tail: str = "", tail_params: Sequence = ()) -> list:
        """The rows, as tuples, with `values` by slot name in the slots' places; `tail`
        (e.g. "LIMIT %s OFFSET %s") is added to the end of the statement."""
        connection = connections[self.alias]
        with connection.cursor() as cursor:
            cursor.execute(self.sql + tail, [*self.params_of(values), *tail_params])
            return converted(cursor.fetchall(), self.converters, connection)

    def dicts(self, values: dict[str, Any]) -> list[dict[str, Any]]:
        """The rows as values() gives them: a dict a row, its columns by name."""
        names = self.names
        return [dict(zip(names, row, strict=True)) for row in self.rows(values)]


def converted(rows: list[tuple], converters: Sequence, connection: Any) -> list[tuple]:
    """The rows with each column through its converters, as the ORM's compiler applies them
    (SQLCompiler.apply_converters; `converters` as its get_converters() items). A column at
    a time: the same calls, without a row's list and loop per row (a fifth of a strategy
    page's queries, 378 rows of score bins)."""
    if not converters or not rows:
        return rows
    columns: list = list(zip(*rows, strict=True))
    for i, (functions, expression) in converters:
        column = columns[i]
        for convert in functions:
            column = [convert(value, expression, connection) for value in column]
        columns[i] = column
    return list(zip(*columns, strict=True))


# By key (the caller's name for the query and its shape) and database alias: a few hundred
# at most.
COMPILED: dict[tuple[Hashable, str], Compiled | None] = {}


def compile_once(
    key: Hashable, model: type[Model], build: Callable[..., QuerySet], slots: dict[str, Any]
) -> Compiled | None:
    """The query `build(**slots)` (a values or values_list queryset of `model`) compiled
    once per `key`, with each slot's places among its parameters; None on a database other
    than PostgreSQL, or for a query the ORM answers without the database (then ask the ORM).

    A slot is a value no request sends, of the type the ORM is given (a text, a date, a
    small integer within its column's range: the ORM refuses one out of range; [-32_123]
    for a list sent as one parameter), found among the compiled parameters by equality."""
    return kept_compiled(key, model, lambda alias: compile_queryset(build(**slots), alias, slots))


def kept_compiled(
    key: Hashable, model: type[Model], make: Callable[[str], Compiled | None]
) -> Compiled | None:
    """The query kept under `key` for `model`'s database (COMPILED), made by make(alias)
    the first time; None on a database other than PostgreSQL (see the module's docstring).
    What compile_once and Statement share."""
    alias = router.db_for_read(model)
    found = COMPILED.get((key, alias), False)
    if found is not False:
        return found
    if connections[alias].vendor != "postgresql":
        return None
    COMPILED[(key, alias)] = found = make(alias)
    return found


def compile_queryset(queryset: QuerySet, alias: str, slots: dict[str, Any]) -> Compiled | None:
    query = queryset.query
    compiler = query.get_compiler(alias)
    try:
        sql, params = compiler.as_sql()
    except EmptyResultSet:  # the ORM answers such a query without asking the database
        return None
    places = [
        (position, name, None if type(param) is type(slot) else type(param))
        for position, param in enumerate(params)
        for name, slot in slots.items()
        if isinstance(param, type(slot)) and param == slot
    ]
    if {name for _, name, _ in places} != set(slots):
        raise ValueError(f"a slot did not reach the compiled parameters: {slots}")
    converters = compiler.get_converters([c[0] for c in compiler.select[: compiler.col_count]])
    names = (*query.extra_select, *query.values_select, *query.annotation_select)
    return Compiled(sql, tuple(params), tuple(places), names, tuple(converters.items()), alias)


def together(queries: Sequence[Compiled], values: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Several compiled queries of one database run as one statement, each with `values`
    in its slots: their rows as each query's dicts() gives them, in the same order. A page
    of five queries makes one round trip instead of five (issue 25).

    Each query's rows come back as one JSON array of arrays, a column of the statement's
    one row, aggregated from the query as a subquery in its own order (PostgreSQL keeps a
    sorted subquery's order through an aggregate above it with nothing else in between);
    each value then goes through the ORM's converters as the query's own rows would (a
    whole float sent as 3 comes back 3.0, as the ORM gives it). PostgreSQL writes a float
    in JSON in its shortest form that reads back exactly, so the values are the same."""
    if not queries:
        return []
    (alias,) = {query.alias for query in queries}
    columns, params = [], []
    for at, query in enumerate(queries):
        names = [f"c{i}" for i in range(len(query.names))]
        columns.append(
            f"(SELECT COALESCE(json_agg(json_build_array({', '.join(names)})), '[]') "
            f"FROM ({query.sql}) AS q{at}({', '.join(names)}))"
        )
        params += query.params_of(values)
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(columns)}", params)
        (found,) = cursor.fetchall()
    return [
        [
            dict(zip(query.names, row, strict=True))
            for row in converted(
                json.loads(rows) if isinstance(rows, str) else rows, query.converters, connection
            )
        ]
        for query, rows in zip(queries, found, strict=True)
    ]


def tailed(compiled: Compiled, tail: str, names: Sequence[str]) -> Compiled:
    """The query with `tail` added to the end of its statement (e.g. " LIMIT %s OFFSET %s"),
    each of the tail's places a slot of these names in order: for in_one_trip, which sends
    each query's values in its slots only."""
    at = len(compiled.params)
    return replace(
        compiled,
        sql=compiled.sql + tail,
        params=(*compiled.params, *([None] * len(names))),
        slots=(*compiled.slots, *((at + i, name, None) for i, name in enumerate(names))),
    )


def in_one_trip(asked: Sequence[tuple[Compiled, dict[str, Any]]]) -> list[list[tuple]] | None:
    """Several compiled queries of one database, each with its own values in its slots, sent
    as one text of statements (separated by semicolons) in one round trip: each query's rows
    as its rows() gives them, in the same order (issue 25: a player's page sent ten queries
    one by one). The values come back in their own types, no JSON between (as `together`
    has: a date would come back as text, which no converter of the ORM reads back).

    The statements' values are written into the text by psycopg's client-side binding
    (Django's default), the text run by PostgreSQL's simple protocol, which takes several
    statements; None on a connection that binds on the server (OPTIONS
    server_side_binding): there ask each query alone."""
    if not asked:
        return []
    (alias,) = {compiled.alias for compiled, _ in asked}
    connection = connections[alias]
    with connection.cursor() as cursor:
        if not isinstance(cursor.cursor, psycopg.ClientCursor):
            return None
        params = [param for compiled, values in asked for param in compiled.params_of(values)]
        cursor.execute("; ".join(compiled.sql for compiled, _ in asked), params)
        found = [cursor.fetchall()]
        while cursor.nextset():
            found.append(cursor.fetchall())
    return [
        converted(rows, compiled.converters, connection)
        for (compiled, _), rows in zip(asked, found, strict=True)
    ]


# A reading's window of rows (Reading.window) as its statement's tail, and its slots' names.
WINDOW = " LIMIT %s OFFSET %s"
WINDOW_SLOTS = ("window: limit", "window: offset")


@dataclass(frozen=True)
class Reading:
    """A query a page reads: build(**values)'s rows (a values_list queryset of `model`),
    compiled once per `key` with `slots` (a placeholder a value, by the same names: see
    compile_once) in the values' places; only its `window` of rows (offset, limit) if one
    is given."""

    key: Hashable
    model: type[Model]
    build: Callable[..., QuerySet]
    slots: dict[str, Any]
    values: dict[str, Any]
    window: tuple[int, int] | None = None

    def compiled(self) -> Compiled | None:
        return compile_once(self.key, self.model, self.build, self.slots)

    def asked(self, compiled: Compiled | None) -> list[tuple]:
        """The rows, asked alone: of the compiled query, or of the ORM where there is none."""
        if compiled is None:
            queryset = self.build(**self.values)
            if self.window is not None:
                offset, limit = self.window
                queryset = queryset[offset : offset + limit]
            return list(queryset)
        if self.window is None:
            return compiled.rows(self.values)
        offset, limit = self.window
        return compiled.rows(self.values, WINDOW, (limit, offset))


@dataclass(frozen=True)
class Statement:
    """A statement of PostgreSQL's read as a Reading is, in the same round trip as the
    others (`read`): its `sql` has a %s a place, `places` the value's name in each; its
    columns `names`, taken as the driver gives them. Elsewhere its rows are
    `elsewhere(**values)`'s, the same rows worked out by the ORM (SQLite)."""

    key: Hashable
    model: type[Model]  # the model whose database it reads
    sql: str
    places: tuple[str, ...]
    names: tuple[str, ...]
    values: dict[str, Any]
    elsewhere: Callable[..., list[tuple]]
    converters: tuple = ()  # as Compiled's: the ORM's, for a statement made of its queries
    window: None = None  # as Reading's: a statement reads all its rows

    def compiled(self) -> Compiled | None:
        return kept_compiled(self.key, self.model, self.as_compiled)

    def as_compiled(self, alias: str) -> Compiled:
        """The statement as a compiled query of `alias`, each place a slot."""
        slots = tuple((at, name, None) for at, name in enumerate(self.places))
        return Compiled(self.sql, (None,) * len(slots), slots, self.names, self.converters, alias)

    def asked(self, compiled: Compiled | None) -> list[tuple]:
        if compiled is None:
            return list(self.elsewhere(**self.values))
        return compiled.rows(self.values)


def read(readings: Sequence[Reading | Statement]) -> list[list[tuple]]:
    """Each reading's rows, in order: in one round trip (in_one_trip) where every one is
    compiled (PostgreSQL) and the connection binds values in the client; else each asked
    alone, compiled where it is (a connection binding on the server), of the ORM where it is
    not (SQLite). What a page's several queries of one id or slug share (the tournament
    page, the player's page; issue 25)."""
    compiled = [reading.compiled() for reading in readings]
    if readings and None not in compiled:
        asked = []
        for reading, query in zip(readings, compiled, strict=True):
            if reading.window is None:
                asked.append((query, reading.values))
            else:
                query = tailed(query, WINDOW, WINDOW_SLOTS)  # type: ignore[arg-type]
                limit, offset = WINDOW_SLOTS
                window = {limit: reading.window[1], offset: reading.window[0]}
                asked.append((query, {**reading.values, **window}))
        found = in_one_trip(asked)  # type: ignore[arg-type]
        if found is not None:
            return found
    return [reading.asked(query) for reading, query in zip(readings, compiled, strict=True)]


def read_one(reading: Reading | Statement) -> list[tuple]:
    """A reading's rows, asked alone (compiled where it can be, else of the ORM)."""
    return reading.asked(reading.compiled())
