"""Form widgets written out in Python, byte for byte what Django's widget templates give (a
test compares them: tests/stats/test_the_filter_bar_is_drawn_as_django_draws_it.py): the
statistics filter bar is drawn on every request, and its templates, one included per option
and per attribute list, cost some 2 ms of a page that has 15 to spend (issue 25)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.safestring import SafeString, mark_safe

from common.quick_html import escaped


def written_attrs(attrs: dict[str, Any]) -> str:
    """As django/forms/widgets/attrs.html writes them: False left out, True bare."""
    return "".join(
        f" {name}" if value is True else f' {name}="{escaped(f"{value}")}"'
        for name, value in attrs.items()
        if value is not False
    )


class QuickSelect(forms.Select):
    """forms.Select without its templates (no option groups: those fall back to them)."""

    def render(self, name: str, value: Any, attrs: dict | None = None, renderer=None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        if any(group_name for group_name, _, _ in widget["optgroups"]):
            return super().render(name, value, attrs, renderer)
        options = "".join(
            f'\n  <option value="{escaped(f"{option['value']}")}"'
            f"{written_attrs(option['attrs'])}>{escaped(option['label'])}</option>\n"
            for _, group, _ in widget["optgroups"]
            for option in group
        )
        return mark_safe(
            f'<select name="{escaped(widget["name"])}"'
            f"{written_attrs(widget['attrs'])}>{options}\n</select>"
        )


class QuickInputMixin:
    """An input widget (TextInput, NumberInput...) without its template."""

    def render(self, name: str, value: Any, attrs: dict | None = None, renderer=None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        shown = widget["value"]
        value_attr = "" if shown is None else f' value="{escaped(f"{shown}")}"'
        return mark_safe(
            f'<input type="{escaped(widget["type"])}" '
            f'name="{escaped(widget["name"])}"{value_attr}'
            f"{written_attrs(widget['attrs'])}>"
        )


class QuickTextInput(QuickInputMixin, forms.TextInput):
    pass


class QuickNumberInput(QuickInputMixin, forms.NumberInput):
    pass
