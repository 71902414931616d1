"""The turn-back advisor page's form, its evaluation and the precomputed table."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django import forms

from analysis.services.jobs import default_budget
from engines.analysis.turn_back import GAMES, AdvisorError, Diver, advise, advisor_state

TABLE_PATH = Path(__file__).parent / "data" / "turn_back.json"


class AdvisorForm(forms.Form):
    game = forms.ChoiceField(
        choices=[(GAMES[0], "Deep Sea Adventure"), (GAMES[1], "Deep Sea Adventure Boost")]
    )
    dive = forms.IntegerField(min_value=1, max_value=3, initial=1)
    air = forms.IntegerField(min_value=0, max_value=25, initial=12)
    divers = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6, "cols": 40}),
        initial="10 1,2 down\n6 1 up\n0 - aboard",
        help_text=(
            "One line per diver, the deciding diver first: depth (spaces from the submarine), "
            "the levels of the chips carried (comma-separated, - for none), and down, up or "
            "aboard."
        ),
    )

    def clean_divers(self) -> list[Diver]:
        divers = []
        for number, line in enumerate(self.cleaned_data["divers"].splitlines(), 1):
            if not line.strip():
                continue
            parts = line.split()
            if len(parts) != 3:
                raise forms.ValidationError(
                    f"line {number}: give depth, carried levels and status, e.g. '10 1,2 down'"
                )
            depth, carried, status = parts
            try:
                levels = () if carried == "-" else tuple(int(x) for x in carried.split(","))
                divers.append(Diver(int(depth), levels, status))
            except ValueError:
                raise forms.ValidationError(
                    f"line {number}: depth and chip levels are whole numbers, not {line!r}"
                ) from None
        return divers

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            data["state"] = advisor_state(data["game"], data["dive"], data["air"], data["divers"])
        except AdvisorError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data


def evaluate(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [e.to_json() for e in advise(data["game"], data["state"], default_budget())]


@cache
def stored_table() -> list[dict[str, Any]]:
    """The table `manage.py compute_turn_back_table` wrote (empty until it has run)."""
    if not TABLE_PATH.exists():
        return []
    return json.loads(TABLE_PATH.read_text(encoding="utf-8"))
