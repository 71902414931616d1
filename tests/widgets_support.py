"""The quick widgets' oracle (common/widgets.py): a form with each quick widget swapped for
the Django widget it stands for, whose templates write what the quick ones must."""

from __future__ import annotations

import copy

from django import forms

from common.widgets import QuickNumberInput, QuickSelect, QuickTextInput

STOCK = {
    QuickSelect: forms.Select,
    QuickTextInput: forms.TextInput,
    QuickNumberInput: forms.NumberInput,
}


def with_djangos_widgets(form: forms.Form) -> forms.Form:
    """The same form, each quick widget swapped for the Django widget it stands for (in
    copies of its fields: forms may share theirs, stats.filters.SharedFields)."""
    form.fields = copy.deepcopy(form.fields)
    for field in form.fields.values():
        quick = field.widget
        if type(quick) not in STOCK:
            continue
        stock = STOCK[type(quick)](attrs=dict(quick.attrs))
        stock.is_required, stock.is_localized = quick.is_required, quick.is_localized
        if isinstance(quick, forms.Select):
            stock.choices = quick.choices
        field.widget = stock
    return form
