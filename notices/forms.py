from __future__ import annotations

from typing import Any

from django import forms

from notices.models import Delivery, Kind


class PreferencesForm(forms.Form):
    """One choice per kind of notice: off, at once, or in the daily digest."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind in Kind:
            self.fields[kind.value] = forms.ChoiceField(
                label=kind.label, choices=Delivery.choices, widget=forms.RadioSelect
            )
