"""Malformed requests over every URL of the site, for the fuzz test (tests/pages/test_fuzz_pages.py)
and the hostile-input run (benchmarks/hostile_input.py).

Paths come from the URL resolver itself, so a page added later is covered without editing
this file: each converter (`<int:...>`, `<slug:...>`, `<str:...>`, a router's `(?P<pk>...)`)
is filled with hostile values, and every path gets hostile query parameters and bodies.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import quote

from django.urls import URLPattern, URLResolver, get_resolver

# Query parameters the pages and the API read (filters, pagination, formats), and one no
# page knows.
PARAMETERS = [
    "page", "game", "player", "tournament", "source", "status", "date_after", "date_before",
    "upload", "players", "ruleset", "strategy", "band", "since", "until", "min_sample", "sort",
    "format", "games", "published", "table", "event", "moment", "unit", "hex", "q", "unknown",
]  # fmt: skip
# Values that broke or could break a page: NUL bytes, numbers too big for any column,
# negative and fractional ids, invalid dates, arrays and objects, markup, lone surrogates
# (percent-encoded), very long text.
VALUES = [
    "%00", "a%00b", "99999999999999999999999999", "-1", "0", "1.5", "1e309", "NaN", "abc",
    "2024-13-45", "2024-02-30", "9999-99", "[]", "{}", "[1,2]", '{"a":1}', "<script>x</script>",
    "%ED%A0%80", "%FF%FE", "%C0%AF", "x" * 5000, "", " ", "true", "null", "deep-vents",
    "..%2F..%2Fetc%2Fpasswd", "%25", "'", '"', "\\", "%0A%0D", "1;DROP TABLE x",
]  # fmt: skip
SEGMENTS = [
    "%00", "0", "-1", "99999999999999999999999999", "abc", "1.5", "%ED%A0%80", "x" * 300,
    "deep-vents", "1",
]  # fmt: skip
BODIES: list[tuple[bytes, str]] = [
    (b"", "application/json"),
    (b"\x00", "application/json"),
    (b"{", "application/json"),
    (b"[]", "application/json"),
    (b'{"game": [], "format": "deepsea-log/1"}', "application/json"),
    (b'{"game": {}, "format": "deepsea-log/1"}', "application/json"),
    (b'{"format": "deepsea-log/1", "format": "x"}', "application/json"),
    (b'{"format": "deepsea-log/1", "game": "deep-dive", "players": [{"name": "\\u0000"}]}',
     "application/json"),
    (b'{"format": "deepsea-log/1", "game": "deep-dive", "players": "\\ud800"}',
     "application/json"),
    (b"[" * 50_000, "application/json"),
    (b'{"n": ' + b"9" * 400 + b"}", "application/json"),
    (b"\xff\xfe\xfd", "application/json"),
    (b"not json\n{\n\x00\n", "application/jsonl"),
    (b'{"game": []}\n{"game": {}}\n', "application/jsonl"),
    (b"\n\n\n", "application/jsonl"),
    (b"game=%00&table=abc&log=%7B", "application/x-www-form-urlencoded"),
    (b"table=1.5&log=" + quote(json.dumps({"format": "deepsea-log/1", "game": []})).encode(),
     "application/x-www-form-urlencoded"),
    (b"--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.jsonl\"\r\n\r\n"
     b"{\"game\": []}\r\n--x--\r\n", "multipart/form-data; boundary=x"),
    (b"--x\r\nbroken", "multipart/form-data; boundary=x"),
    (b"--x\r\n", "multipart/form-data"),
    (b"<xml/>", "application/xml"),
    (b"{}", "text/plain; charset=nope"),
]  # fmt: skip
CONVERTER = re.compile(r"<(?:(?P<kind>\w+):)?(?P<name>\w+)>|\(\?P<(?P<group>\w+)>[^)]*\)")


@dataclass(frozen=True)
class HostileRequest:
    method: str
    path: str
    query: str = ""
    body: bytes = b""
    content_type: str = ""
    headers: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    @property
    def url(self) -> str:
        return f"{self.path}?{self.query}" if self.query else self.path

    def send(self, client):
        """Send through a Django test client; returns the response."""
        extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in self.headers.items()}
        if self.method == "GET":
            return client.get(self.url, **extra)
        return client.generic(
            self.method, self.url, data=self.body, content_type=self.content_type, **extra
        )


def route_templates() -> list[str]:
    """Every route of the site as a template: `/games/{log_id}/`, `/api/logs/{pk}/`..."""
    found: list[str] = []

    def walk(patterns, prefix: str) -> None:
        for pattern in patterns:
            text = str(pattern.pattern).lstrip("^").rstrip("$")
            if isinstance(pattern, URLResolver):
                if not text.startswith("admin"):
                    walk(pattern.url_patterns, prefix + text)
            elif isinstance(pattern, URLPattern):
                found.append(prefix + text)

    walk(get_resolver().url_patterns, "/")
    templates = []
    for route in found:
        route = route.replace("/?", "/").replace("\\.", ".")
        templates.append(CONVERTER.sub(lambda m: "{" + (m["name"] or m["group"]) + "}", route))
    return sorted(set(templates))


def fill(template: str, value: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: "json" if m[1] == "format" else value, template)


def hostile_requests() -> Iterator[HostileRequest]:
    """Distinct malformed requests, every route several times over."""
    templates = route_templates()
    seen: set[HostileRequest] = set()
    for template in templates:
        segments = SEGMENTS if "{" in template else [""]
        for segment in segments:
            path = fill(template, segment)
            request = HostileRequest("GET", path)
            yield request
            seen.add(request)
    pairs = itertools.product(PARAMETERS, VALUES)
    for template, (name, value) in zip(itertools.cycle(templates), pairs, strict=False):
        yield HostileRequest("GET", fill(template, "1"), f"{name}={value}")
        yield HostileRequest("GET", fill(template, "1"), f"{name}={value}&{name}=1&{name}[]=2")
    for template in templates:
        for body, content_type in BODIES:
            yield HostileRequest("POST", fill(template, "1"), "", body, content_type)
    for template in templates:
        for method in ("PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"):
            yield HostileRequest(method, fill(template, "1"), "", b"{", "application/json")
    for template in templates[:10]:
        yield HostileRequest(
            "GET",
            fill(template, "1"),
            headers={"Accept": "\x00", "Accept-Language": "zz-" + "x" * 300, "Range": "bytes=-"},
        )
