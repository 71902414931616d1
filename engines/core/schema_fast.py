"""A yes/no JSON Schema check written for the logs' schemas, several times faster.

`fastjsonschema` builds a validator that raises at the first failure and explains it; on
the logs' schemas it was most of verification (issue 14), above all for Deep Dive, whose
`anyOf` over event types raises and catches an exception for every branch an event does
not match. `accepts(schema)` compiles the same schema into a function that only answers
whether a value is valid: `anyOf` whose branches each fix `type` to a constant dispatches
on the event's type, every other keyword is checked inline, and nothing raises.

Its answer is the validator's, keyword for keyword (an integer may be 2.0 but not true,
`enum` compares like Python's ==, `uniqueItems` tells true from 1):
tests/engines/test_fast_path_matches_schema.py holds it to that over valid and corrupted logs of
every game. A schema keyword it does not know is refused when compiling, never ignored.
When it says no, `schema.validate` runs the validator for the message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from functools import cache
from typing import Any

# Keywords that say nothing about validity.
_ANNOTATIONS = {"$schema", "title", "description", "default", "examples"}
_KNOWN = _ANNOTATIONS | {
    "type",
    "const",
    "enum",
    "properties",
    "required",
    "additionalProperties",
    "dependencies",
    "items",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "anyOf",
}

# The validator's test for each JSON type, as an expression of `{v}`.
_TYPE_TESTS = {
    "object": "{v}.__class__ is dict",
    "array": "({v}.__class__ is list or {v}.__class__ is tuple)",
    "string": "{v}.__class__ is str",
    "boolean": "{v}.__class__ is bool",
    "null": "{v} is None",
    "integer": "({v}.__class__ is int or ({v}.__class__ is float and {v}.is_integer()))",
    "number": "({v}.__class__ is int or {v}.__class__ is float or {v}.__class__ is Decimal)",
}
_IS_NUMBER = "({v}.__class__ is int or {v}.__class__ is float or {v}.__class__ is Decimal)"


def _unique_key(value: Any) -> Any:
    """fastjsonschema's uniqueItems key: true and 1 differ, 1 and 1.0 do not."""
    if isinstance(value, dict):
        return frozenset((k, _unique_key(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_unique_key(v) for v in value)
    if isinstance(value, bool):
        return (bool, value)
    return value


class _Writer:
    """Python source for one predicate: a `return False` at the first failed keyword."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.constants: dict[str, Any] = {}
        self.names = 0
        # An object's variable -> the variable holding its `type`, which anyOf's dispatch
        # found equal to the branch's constant: present, and to be checked only as a str.
        self.typed: dict[str, str] = {}

    def name(self, prefix: str) -> str:
        self.names += 1
        return f"{prefix}{self.names}"

    def constant(self, value: Any) -> str:
        name = self.name("k")
        self.constants[name] = value
        return name

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    def fail_unless(self, depth: int, test: str) -> None:
        self.emit(depth, f"if not ({test}):")
        self.emit(depth + 1, "return False")

    def check(self, schema: Mapping[str, Any], v: str, depth: int, known: str = "") -> None:
        """Statements that return False when the value named `v` fails `schema` (whose
        JSON type is `known` to be right already, when given)."""
        unknown = set(schema) - _KNOWN
        if unknown:
            raise NotImplementedError(f"schema keywords {sorted(unknown)} are not compiled")
        if "anyOf" in schema:
            self.any_of(schema["anyOf"], v, depth)
        kind = schema.get("type")
        if kind is not None:
            if not isinstance(kind, str):
                raise NotImplementedError("a list of types is not compiled")
            if kind != known:
                self.fail_unless(depth, _TYPE_TESTS[kind].format(v=v))  # bool is not int here
        if "const" in schema:
            self.const(schema["const"], v, depth)
        if "enum" in schema:
            self.enum(schema["enum"], v, depth)
        if "minimum" in schema or "maximum" in schema:
            # As the validator compares: a NaN is neither below a minimum nor above a maximum
            # (an integer is never NaN, so its bounds may be one chained comparison).
            inner = self.only_if(kind in ("integer", "number"), _IS_NUMBER.format(v=v), depth)
            self.sizes(schema, "minimum", "maximum", v, inner, chained=kind == "integer")
        if "minLength" in schema or "maxLength" in schema:
            inner = self.only_if(kind == "string", f"{v}.__class__ is str", depth)
            self.sizes(schema, "minLength", "maxLength", f"len({v})", inner, chained=True)
        if {"items", "minItems", "maxItems", "uniqueItems"} & set(schema):
            inner = self.only_if(kind == "array", _TYPE_TESTS["array"].format(v=v), depth)
            self.array(schema, v, inner)
        if {"properties", "required", "additionalProperties", "dependencies"} & set(schema):
            inner = self.only_if(kind == "object", f"{v}.__class__ is dict", depth)
            self.object(schema, v, inner)

    def only_if(self, known: bool, test: str, depth: int) -> int:
        """Keywords of one JSON type apply only to values of that type: open an `if` on
        it (unless `type` already said so) and return the depth inside."""
        if known:
            return depth
        self.emit(depth, f"if {test}:")
        self.emit(depth + 1, "pass")
        return depth + 1

    def const(self, value: Any, v: str, depth: int) -> None:
        if not isinstance(value, str):
            raise NotImplementedError("only string constants are compiled")
        self.fail_unless(depth, f"{v}.__class__ is str and {v} == {value!r}")

    def enum(self, values: list[Any], v: str, depth: int) -> None:
        strings = [value for value in values if isinstance(value, str)]
        numbers = [
            value for value in values if isinstance(value, (int, float)) and type(value) is not bool
        ]
        if len(strings) + len(numbers) != len(values):
            raise NotImplementedError("only string and number enums are compiled")
        tests = []
        if strings:
            tests.append(f"({v}.__class__ is str and {v} in {self.constant(frozenset(strings))})")
        if numbers:
            tests.append(
                f"(({v}.__class__ is int or {v}.__class__ is float) "
                f"and {v} in {self.constant(frozenset(numbers))})"
            )
        self.fail_unless(depth, " or ".join(tests))

    def sizes(
        self,
        schema: Mapping[str, Any],
        low: str,
        high: str,
        size: str,
        depth: int,
        chained: bool = False,
    ) -> None:
        """`size` within the bounds given; `chained` when it cannot be NaN."""
        if chained and low in schema and high in schema:
            if schema[low] == schema[high]:
                self.fail_unless(depth, f"{size} == {schema[low]!r}")
            else:
                self.fail_unless(depth, f"{schema[low]!r} <= {size} <= {schema[high]!r}")
            return
        if low in schema:
            self.emit(depth, f"if {size} < {schema[low]!r}:")
            self.emit(depth + 1, "return False")
        if high in schema:
            self.emit(depth, f"if {size} > {schema[high]!r}:")
            self.emit(depth + 1, "return False")

    def array(self, schema: Mapping[str, Any], v: str, depth: int) -> None:
        self.sizes(schema, "minItems", "maxItems", f"len({v})", depth, chained=True)
        if schema.get("uniqueItems"):
            key = self.constant(_unique_key)
            self.fail_unless(depth, f"len({v}) == len(set(map({key}, {v})))")
        items = schema.get("items")
        if items is not None:
            if not isinstance(items, Mapping):
                raise NotImplementedError("only one items schema is compiled")
            size = schema.get("minItems")
            if size is not None and size == schema.get("maxItems") and size <= 4:
                # A pair such as a hex [q, r]: its items by index, no loop.
                for index in range(size):
                    item = self.name("i")
                    self.emit(depth, f"{item} = {v}[{index}]")
                    self.check(items, item, depth)
                return
            if _string_enum(items):
                # A list of names such as a shuffled stack: every item a str (exactly, as
                # the enum's test asks) and one of the names, checked by set in C, no loop.
                strings = self.constant({str})
                names = self.constant(frozenset(items["enum"]))
                self.fail_unless(
                    depth, f"set(map(type, {v})) <= {strings} and {names}.issuperset({v})"
                )
                return
            item = self.name("i")
            self.emit(depth, f"for {item} in {v}:")
            self.check(items, item, depth + 1)
            self.emit(depth + 1, "pass")

    def object(self, schema: Mapping[str, Any], v: str, depth: int) -> None:
        """One pass over the object's own keys: each checked by its property's schema and
        its dependency (a key's `dependencies` entry), an unknown one refused when
        `additionalProperties` is false."""
        properties = schema.get("properties", {})
        dependencies = schema.get("dependencies") or {}
        for name in schema.get("required", []):
            if name != "type" or v not in self.typed:
                self.fail_unless(depth, f"{name!r} in {v}")
        extra = schema.get("additionalProperties", True)
        if extra not in (True, False):
            raise NotImplementedError("only additionalProperties true or false is compiled")
        if any(not isinstance(needs, Mapping) for needs in dependencies.values()):
            raise NotImplementedError("only schema dependencies are compiled")
        checked = {name: sub for name, sub in properties.items() if not set(sub) <= _ANNOTATIONS}
        tag = _tag(schema) if extra is False else None
        if tag is not None:
            self.tagged(schema, tag, v, depth)
            return
        if extra is True:
            for name, needs in dependencies.items():
                self.emit(depth, f"if {name!r} in {v}:")
                self.check(needs, v, depth + 1)
                self.emit(depth + 1, "pass")
            for name, subschema in checked.items():
                field = self.name("f")
                self.emit(depth, f"{field} = {v}.get({name!r}, _ABSENT)")
                self.emit(depth, f"if {field} is not _ABSENT:")
                self.check(subschema, field, depth + 1)
                self.emit(depth + 1, "pass")
            return
        if set(properties) == set(schema.get("required", [])):
            # Every property required, no other allowed: the keys are exactly these.
            self.fail_unless(depth, f"len({v}) == {len(properties)}")
            for name, subschema in properties.items():
                if name == "type" and v in self.typed and list(_strip(subschema)) == ["const"]:
                    # Dispatched on: equal to the constant already (`const` asks a str too).
                    self.fail_unless(depth, f"{self.typed[v]}.__class__ is str")
                else:
                    field = self.name("f")
                    self.emit(depth, f"{field} = {v}[{name!r}]")
                    self.check(subschema, field, depth)
                if name in dependencies:
                    self.check(dependencies[name], v, depth)
            return
        key, field = self.name("k"), self.name("f")
        self.emit(depth, f"for {key}, {field} in {v}.items():")
        keyword = "if"
        for name, subschema in properties.items():
            self.emit(depth + 1, f"{keyword} {key} == {name!r}:")
            keyword = "elif"
            self.check(subschema, field, depth + 2)
            if name in dependencies:
                self.check(dependencies[name], v, depth + 2)
            self.emit(depth + 2, "pass")
        self.emit(depth + 1, "else:" if keyword == "elif" else "if True:")
        self.emit(depth + 2, "return False")

    def tagged(self, schema: Mapping[str, Any], tag: str, v: str, depth: int) -> None:
        """An object whose `tag` property (required, a string enum) decides which other
        keys it may have (see `_tag`): a branch per tag value checks the keys that value
        allows, those present, and counts them: any other key makes the count short."""
        properties = schema["properties"]
        required = schema.get("required", [])
        dependencies = schema.get("dependencies", {})
        value, count = self.name("t"), self.name("n")
        self.emit(depth, f"{value} = {v}[{tag!r}]")  # present: `object` checked the required
        keyword = "if"
        for option in properties[tag]["enum"]:
            allowed = [
                name
                for name in properties
                if name not in dependencies
                or option in _strip(dependencies[name])["properties"][tag]["enum"]
            ]
            self.emit(depth, f"{keyword} {value} == {option!r}:")
            keyword = "elif"
            if not set(required) <= set(allowed):
                self.emit(depth + 1, "return False")
                continue
            self.emit(depth + 1, f"{count} = {len(required)}")
            for name in allowed:
                subschema = properties[name]
                checked = name != tag and not set(subschema) <= _ANNOTATIONS
                if name in required:
                    if checked:
                        field = self.name("f")
                        self.emit(depth + 1, f"{field} = {v}[{name!r}]")
                        self.check(subschema, field, depth + 1)
                    continue
                self.emit(depth + 1, f"if {name!r} in {v}:")
                self.emit(depth + 2, f"{count} += 1")
                if checked:
                    field = self.name("f")
                    self.emit(depth + 2, f"{field} = {v}[{name!r}]")
                    self.check(subschema, field, depth + 2)
            self.fail_unless(depth + 1, f"len({v}) == {count}")
        self.emit(depth, "else:")
        self.emit(depth + 1, "return False")

    def any_of(self, branches: list[Mapping[str, Any]], v: str, depth: int) -> None:
        """Only the branch whose constant `type` the value has can pass: an `if` per
        type, each holding its branch inline (or, where types repeat, any of them)."""
        by_type: dict[str, list[Mapping[str, Any]]] = {}
        for branch in branches:
            kind = (branch.get("properties", {}).get("type") or {}).get("const")
            if (
                branch.get("type") != "object"
                or "type" not in branch.get("required", [])
                or not isinstance(kind, str)
            ):
                raise NotImplementedError("only anyOf over objects of a constant type compiled")
            by_type.setdefault(kind, []).append(branch)
        kind = self.name("t")
        self.fail_unless(depth, f"{v}.__class__ is dict")
        self.emit(depth, f"{kind} = {v}.get('type')")
        keyword = "if"
        for name, alike in by_type.items():
            self.emit(depth, f"{keyword} {kind} == {name!r}:")
            keyword = "elif"
            if len(alike) == 1:
                self.typed[v] = kind
                self.check(alike[0], v, depth + 1, known="object")
                del self.typed[v]
            else:
                accepts = self.constant(_any_of([_compile(branch) for branch in alike]))
                self.fail_unless(depth + 1, f"{accepts}({v})")
            self.emit(depth + 1, "pass")
        self.emit(depth, "else:")
        self.emit(depth + 1, "return False")


def _strip(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A schema without its annotations."""
    return {key: value for key, value in schema.items() if key not in _ANNOTATIONS}


def _string_enum(schema: Any) -> bool:
    """A schema that is only an enum of strings."""
    if not isinstance(schema, Mapping):
        return False
    values = _strip(schema)
    return list(values) == ["enum"] and all(isinstance(x, str) for x in values["enum"])


def _tag(schema: Mapping[str, Any]) -> str | None:
    """The property that tags an object, if its schema has one: a required property whose
    schema is an enum of strings, with every dependency narrowing only that enum. Then a
    key is allowed exactly when it is a property whose dependency (if any) lists the tag's
    value: the Deep Vents events (type decides which fields may appear)."""
    properties = schema.get("properties", {})
    dependencies = schema.get("dependencies") or {}
    if not dependencies:
        return None
    tags = set()
    for needs in dependencies.values():
        needs = _strip(needs)
        if list(needs) != ["properties"] or len(needs["properties"]) != 1:
            return None
        [(name, narrowed)] = needs["properties"].items()
        if not _string_enum(narrowed):
            return None
        tags.add(name)
    if len(tags) != 1:
        return None
    [tag] = tags
    if tag not in schema.get("required", []) or not _string_enum(properties.get(tag)):
        return None
    return tag


def _any_of(accepts: list[Callable[[Any], bool]]) -> Callable[[Any], bool]:
    return lambda value: any(accept(value) for accept in accepts)


def _compile(schema: Mapping[str, Any]) -> Callable[[Any], bool]:
    writer = _Writer()
    writer.check(schema, "value", 1)
    source = "def accepts(value):\n" + "\n".join(writer.lines) + "\n    return True\n"
    namespace: dict[str, Any] = {"_ABSENT": object(), "Decimal": Decimal, **writer.constants}
    exec(compile(source, "<schema_fast>", "exec"), namespace)  # our own schema, not input
    return namespace["accepts"]


@cache
def _compiled(schema_json: str) -> Callable[[Any], bool]:
    import json

    return _compile(json.loads(schema_json))


def accepts(schema: Mapping[str, Any]) -> Callable[[Any], bool]:
    """A function answering whether a value is valid against `schema` (see the module)."""
    import json

    return _compiled(json.dumps(schema, sort_keys=True))
