"""common.cache.kept takes its key or a function giving it: the function (a digest of a
player's thousands of history rows, some 0.4 ms) is called only where the cache keeps
anything, never on a site whose cache is Django's dummy one (issue 25); there and elsewhere
the fragment is the one rendered."""

import uuid
from dataclasses import dataclass, field

import pytest
from django.test import override_settings

from common import cache

NONE = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}


def own_local_cache() -> dict:
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{uuid.uuid4().hex}",
        }
    }


@dataclass
class Counted:
    """A fragment's key function and renderer, counting their calls."""

    asked: list[int] = field(default_factory=list)
    rendered: list[int] = field(default_factory=list)

    def key(self) -> str:
        self.asked.append(1)
        return "fragment-key"

    def render(self) -> str:
        self.rendered.append(1)
        return "<p>drawn</p>"


@pytest.fixture
def counted() -> Counted:
    return Counted()


def test_a_dummy_cache_asks_for_no_key_and_renders_each_time(counted):
    with override_settings(CACHES=NONE):
        shown = [str(cache.kept(counted.key, counted.render)) for _ in range(2)]

    assert shown == ["<p>drawn</p>"] * 2
    assert counted.asked == [] and len(counted.rendered) == 2


def test_a_cache_that_keeps_asks_for_the_key_and_renders_once(counted):
    with override_settings(CACHES=own_local_cache()):
        shown = [str(cache.kept(counted.key, counted.render)) for _ in range(2)]
        assert str(cache.kept("fragment-key", lambda: "<p>other</p>")) == "<p>drawn</p>"

    assert shown == ["<p>drawn</p>"] * 2
    assert len(counted.asked) == 2 and len(counted.rendered) == 1
