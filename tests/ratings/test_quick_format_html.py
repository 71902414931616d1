"""common.quick_html writes what django.utils.html writes, without its lazy wrapper: the
leaderboard's rows and the filter bar's widgets are written with it."""

from django.utils import html as django_html
from django.utils.safestring import SafeString, mark_safe

from common import quick_html

VALUES = [
    "",
    "plain",
    "<b>&'\"",
    mark_safe("<em>kept</em>"),
    0,
    -7,
    1520.5,
    1e21,
    float("nan"),
    True,
    None,
    "\N{EN DASH}",
]


def test_escaped_is_djangos_conditional_escape():
    for value in VALUES:
        assert quick_html.escaped(value) == django_html.conditional_escape(value)


def test_format_html_is_djangos_and_marks_its_result_safe():
    template = '<a href="{}" title="{}">{}</a>{}'
    for value in VALUES:
        quick = quick_html.format_html(template, value, value, value, value)
        assert quick == django_html.format_html(template, value, value, value, value)
        assert isinstance(quick, SafeString)
