"""common.cache.kept takes its key or a function giving it: the function (a digest of a
player's thousands of history rows, some 0.4 ms) is called only where the cache keeps
anything, never on a site whose cache is Django's dummy one (issue 25); there and elsewhere
the fragment is the one rendered."""

import uuid

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


def test_a_dummy_cache_asks_for_no_key_and_renders_each_time():
    asked, rendered = [], []

    def key() -> str:
        asked.append(1)
        return "fragment-key"

    def render() -> str:
        rendered.append(1)
        return "<p>drawn</p>"

    with override_settings(CACHES=NONE):
        assert [str(cache.kept(key, render)) for _ in range(2)] == ["<p>drawn</p>"] * 2

    assert asked == [] and len(rendered) == 2


def test_a_cache_that_keeps_asks_for_the_key_and_renders_once():
    asked, rendered = [], []

    def key() -> str:
        asked.append(1)
        return "fragment-key"

    def render() -> str:
        rendered.append(1)
        return "<p>drawn</p>"

    with override_settings(CACHES=own_local_cache()):
        shown = [str(cache.kept(key, render)) for _ in range(2)]
        assert str(cache.kept("fragment-key", lambda: "<p>other</p>")) == "<p>drawn</p>"

    assert shown == ["<p>drawn</p>"] * 2
    assert len(asked) == 2 and len(rendered) == 1
