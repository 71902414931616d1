"""common.quick_numbers.floatformat writes what Django's filter writes under whatever locale is
active when it is called: it asks for the decimal separator only where the text has a decimal
point (asking costs more than the rest, and the games lists' whole scores need none), and asks
again on every such call, so a language activated, or a setting changed, between two calls
is followed on the second (German writes "1,5" where English writes "1.5")."""

from __future__ import annotations

from unittest import mock

import pytest
from django.template import Context, Template
from django.test import override_settings
from django.utils import formats, translation

from common.quick_numbers import floatformat

FILTER = Template("{{ v|floatformat:p }}")
VALUES = [0, 7, -3, 12.0, -0.0, 1.5, 2.25, -0.001, 1 / 3, 1234567.891, 0.005]


def filtered(value, places: int) -> str:
    return FILTER.render(Context({"v": value, "p": places}))


@pytest.mark.parametrize("language", ["en", "de", "fr"])
@pytest.mark.parametrize("places", [-2, -1, 0, 1, 2])
def test_the_text_is_the_filters_in_each_language(language, places):
    with translation.override(language):
        for value in VALUES:
            assert floatformat(value, places) == filtered(value, places), (language, value)


def test_a_language_activated_between_two_calls_is_followed():
    with translation.override("en"):
        assert floatformat(1.5, -1) == "1.5"
    with translation.override("de"):
        assert floatformat(1.5, -1) == "1,5"
        assert floatformat(2.25, 2) == "2,25"
    with translation.override("en"):
        assert floatformat(1.5, -1) == "1.5"


def test_a_setting_changed_between_two_calls_is_followed():
    # No language: the settings' separator (the site's requests activate none).
    with translation.override(None):
        assert floatformat(1.5, -1) == "1.5"
        with override_settings(DECIMAL_SEPARATOR=","):
            assert floatformat(1.5, -1) == filtered(1.5, -1) == "1,5"
        with override_settings(USE_THOUSAND_SEPARATOR=True, THOUSAND_SEPARATOR=" "):
            assert floatformat(1234567.0, -1) == filtered(1234567.0, -1)
        assert floatformat(1.5, -1) == "1.5"


def test_a_whole_number_is_written_without_asking_for_the_separator():
    with mock.patch.object(formats, "get_format", side_effect=AssertionError) as asked:
        assert [floatformat(v, p) for v, p in ((12.0, -1), (7, 0), (2.5, 0))] == ["12", "7", "3"]
    assert not asked.called
