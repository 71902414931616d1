"""The fast path of verification (issue 14) answers exactly as the slow one did.

Two parts are held to that:

- reading: `loads` (orjson where provably equal) against `_loads_exactly`, the stdlib
  reader with its hooks for duplicate keys, long numbers, NaN, NUL and lone surrogates;
- checking: `schema_fast.accepts` (the schema compiled to a yes/no function) against the
  published JSON Schema run by fastjsonschema, over a corpus of valid logs of every game
  (simulated by the bots, and the golden files) and of systematically corrupted ones.

And the errors a scorekeeper reads (event index, seat, field, ruling) are the validator's.
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import fastjsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines.core import log as log_module
from engines.core import schema, schema_fast
from engines.core.errors import LogError, MalformedLogError
from engines.core.log import loads
from engines.core.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]
GAME_IDS = list(engines.GAMES)
# Every event type of every game, and one no game has: what a type may be swapped for.
EVENT_TYPES = [
    "grow", "trigger", "shell", "take", "place", "end", "decimate", "payoff", "bid", "pass",
    "turn", "boost", "swim", "roll", "choose", "pick", "drop", "stack",
    "dive", "shark", "surface", "stay", "open", "teleport",
]  # fmt: skip


def deeply_nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


# What a value is replaced by: every JSON type, bools and floats where ints go, integral
# floats (the schema's integers include 2.0), out-of-range and huge numbers, long strings.
REPLACEMENTS: list[Any] = [
    None, True, False, 0, 1, -1, 2.0, 1.5, -0.5, 7, 100, 101, 1000, 10**30, -(10**30),
    math.inf, "", "x", "x" * 101, "grow", [], [0], [0, 0], [0, 0, 0], [1.5, 0], [True, 0],
    {}, {"type": "end"}, deeply_nested(40),
]  # fmt: skip


@cache
def validator(game_id: str) -> Any:
    return fastjsonschema.compile(engines.get_game(game_id).schema())


def schema_says(game_id: str, log: Any) -> bool:
    try:
        validator(game_id)(log)
    except fastjsonschema.JsonSchemaValueException:
        return False
    return True


def fast_says(game_id: str, log: Any) -> bool:
    return schema_fast.accepts(engines.get_game(game_id).schema())(log)


@cache
def valid_logs(game_id: str) -> tuple[str, ...]:
    """Logs that verify, as JSON text: simulated at every table size, and the golden ones."""
    game = engines.get_game(game_id)
    texts = []
    for players in range(game.min_players, min(game.max_players, 4) + 1):
        for name in game.rulesets():
            ruleset = game.ruleset({"name": name})
            for log in simulate(game, ruleset, players, 1, seed=f"fast-{name}"):
                texts.append(json.dumps(log))
    texts.extend(
        path.read_text() for path in sorted((ROOT / "tests/engines/golden" / game_id).glob("*"))
    )
    return tuple(texts)


def sample_paths(log: Any) -> Iterator[tuple[Any, ...]]:
    """Paths to every value of a log, but of the events only the first of each type (and
    every value inside those): a few hundred paths, covering every schema branch."""
    seen_types: set[Any] = set()
    stack: list[tuple[tuple[Any, ...], Any]] = [((), log)]
    while stack:
        path, value = stack.pop()
        yield path
        if isinstance(value, dict):
            stack.extend(((*path, key), item) for key, item in value.items())
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if path == ("events",):
                    kind = item.get("type") if isinstance(item, dict) else None
                    if kind in seen_types:
                        continue
                    seen_types.add(kind)
                stack.append(((*path, index), item))


def replaced(log: Any, path: tuple[Any, ...], value: Any) -> Any:
    """The log with the value at path replaced: only the containers on the path are copied,
    the rest is shared with the log (neither check writes to what it reads; copying whole
    logs was most of this file's time)."""
    if not path:
        return copy.deepcopy(value)
    corrupted = copy.copy(log)
    holder = corrupted
    for part in path[:-1]:
        holder[part] = copy.copy(holder[part])
        holder = holder[part]
    holder[path[-1]] = copy.deepcopy(value)
    return corrupted


def corruptions(log: dict[str, Any]) -> Iterator[Any]:
    """Every path given every replacement; every key removed; an extra key in every
    object; every event retyped; lists emptied, doubled and grown."""
    for path in list(sample_paths(log)):
        target = log
        for part in path:
            target = target[part]
        for value in REPLACEMENTS:
            yield replaced(log, path, value)
        if isinstance(target, dict):
            for key in target:
                yield replaced(log, path, {k: v for k, v in target.items() if k != key})
            yield replaced(log, path, {**target, "extra": 1})
            if "type" in target:
                for kind in EVENT_TYPES:
                    yield replaced(log, path, {**target, "type": kind})
        if isinstance(target, list):
            yield replaced(log, path, [])
            yield replaced(log, path, target + target)
            if target:
                yield replaced(log, path, [*target, target[-1]])


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_valid_log_of_every_game_is_accepted_by_both(game_id):
    for text in valid_logs(game_id):
        log = loads(text)
        assert schema_says(game_id, log)
        assert fast_says(game_id, log)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_corrupted_log_gets_the_schemas_verdict(game_id):
    compared = refused = 0
    for text in valid_logs(game_id)[:3]:
        for corrupted in corruptions(loads(text)):
            verdict = schema_says(game_id, corrupted)
            assert fast_says(game_id, corrupted) == verdict, json.dumps(corrupted)[:2000]
            compared += 1
            refused += not verdict
    assert refused > 1000  # the corruptions do reach the schema's refusals
    assert compared - refused > 100  # and its acceptances (an integral float, a bigger bid)


def json_values() -> st.SearchStrategy[Any]:
    scalars = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False)
        | st.text(max_size=8)
        | st.sampled_from(EVENT_TYPES)
    )
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(["type", "seat", "hex", "x", "name"]), inner, max_size=3
            )
        ),
        max_leaves=8,
    )


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_value_anywhere_in_a_log_gets_the_schemas_verdict(game_id, data):
    log = loads(valid_logs(game_id)[0])
    paths = list(sample_paths(log))
    corrupted = replaced(log, data.draw(st.sampled_from(paths)), data.draw(json_values()))
    assert fast_says(game_id, corrupted) == schema_says(game_id, corrupted)


def verdict(text: str) -> Any:
    """What verification says of a log: its outcome, or the error a scorekeeper reads."""
    try:
        return engines.replay(loads(text), collect_facts=True).outcome
    except LogError as error:
        return error.to_dict()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_refused_log_gets_the_validators_error_naming_event_seat_field_and_ruling(
    game_id, monkeypatch
):
    rng = random.Random(game_id)
    log = loads(valid_logs(game_id)[0])
    texts = [json.dumps(c) for c in corruptions(log) if rng.random() < 0.05]
    fast = [verdict(text) for text in texts]
    # The slow path: every log goes through the validator, as before issue 14.
    monkeypatch.setattr(schema_fast, "accepts", lambda s: lambda value: False)
    monkeypatch.setattr(schema, "_last_seen", {})
    assert fast == [verdict(text) for text in texts]
    assert any(isinstance(v, dict) and v["index"] is not None and v["rule"] for v in fast)


def test_a_schema_keyword_the_fast_check_does_not_know_is_refused_when_compiling():
    with pytest.raises(NotImplementedError, match="patternProperties"):
        schema_fast.accepts({"type": "object", "patternProperties": {"^x": {}}})


# --- reading ---------------------------------------------------------------------------


def read(data: bytes | str, reader: Any) -> Any:
    """A reader's answer, told apart by type (1, 1.0 and true are different values)."""
    try:
        return ("value", typed(reader(data)))
    except MalformedLogError as error:
        return ("error", str(error))


def typed(value: Any) -> list[Any]:
    """The value as a flat list of (type, token)s; iterative, as values nest deeper than
    Python recurses."""
    tokens: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            tokens.append(("object", list(item)))
            stack.extend(reversed(item.values()))
        elif isinstance(item, list):
            tokens.append(("array", len(item)))
            stack.extend(reversed(item))
        else:
            tokens.append((type(item).__name__, repr(item)))
    return tokens


def agree(text: str) -> None:
    exact = read(text, log_module._loads_exactly)
    assert read(text, loads) == exact
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError:
        return
    assert read(raw, loads) == read(raw, log_module._loads_exactly)


# JSON text built token by token, so that keys may repeat, numbers may be any length,
# strings may hold escapes and colons, and whitespace may stand anywhere.
_spaces = st.sampled_from(["", "", " ", "\n  ", "\t", " \r\n"])
_numbers = st.one_of(
    st.integers().map(str),
    st.integers(min_value=10**17, max_value=10**40).map(str),
    st.integers(max_value=-(10**17), min_value=-(10**40)).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.from_regex(r"-?(0|[1-9][0-9]{0,35})(\.[0-9]{1,30})?([eE][+-]?[0-9]{1,4})?", fullmatch=True),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-0", "-0.0", "1E5"]),
)
_strings = st.one_of(
    st.text(max_size=6).map(lambda s: json.dumps(s, ensure_ascii=False)),
    st.text(max_size=6).map(json.dumps),
    st.sampled_from(['":"', '":x"', '"a:b"', '"\\u0000"', '"\\ud800"', '"\\"q\\""', '"\\\\"']),
)
_keys = st.one_of(st.sampled_from(['"type"', '"seat"', '"a"', '":"', '"a:"']), _strings)


def _join(parts: list[str], open_: str, close: str, space: str) -> str:
    return open_ + space + ("," + space).join(parts) + space + close


json_texts = st.recursive(
    st.one_of(_numbers, _strings, st.sampled_from(["true", "false", "null"])),
    lambda inner: st.one_of(
        st.builds(_join, st.lists(inner, max_size=4), st.just("["), st.just("]"), _spaces),
        st.builds(
            _join,
            st.lists(
                st.builds(lambda k, s, v: k + s + ":" + s + v, _keys, _spaces, inner), max_size=4
            ),
            st.just("{"),
            st.just("}"),
            _spaces,
        ),
    ),
    max_leaves=12,
)


@settings(max_examples=600, deadline=None)
@given(text=json_texts, space=_spaces)
def test_any_json_text_reads_as_the_exact_reader_reads_it(text, space):
    agree(space + text + space)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "\ufeff{}",
        '{"a": 1, "a": 2}',
        '{"a" :1,"a":2}',
        '{"a":{"b":1},"a":{"c":1,"d":2}}',
        '{"a":"x:y","a":1}',
        '{"a":1,"b":"\\u0000"}',
        '["\\ud800"]',
        "[18446744073709551616]",
        "[-9223372036854775809]",
        "[1" + "0" * 40 + "]",
        "[0." + "1" * 40 + "]",
        "[1e400]",
        "[NaN]",
        "[1, 2",
        "{" * 5000 + "}" * 5000,
        "[" * 300 + "]" * 300,
        "[" * 2000 + "]" * 2000,
        '{"name": "Zoë", "city": "東京"}',
    ],
)
def test_hostile_texts_read_as_the_exact_reader_reads_them(text):
    agree(text)


def test_invalid_utf8_is_refused_as_before():
    raw = b'{"name": "\xff"}'
    assert read(raw, loads) == read(raw, log_module._loads_exactly)
    assert read(raw, loads)[0] == "error"
