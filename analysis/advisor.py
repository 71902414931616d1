"""The turn-back advisor page's form (a dive described in plain fields), its evaluation and
the published study of turn-back thresholds."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django import forms

from analysis.services.jobs import default_budget
from engines.analysis.turn_back import GAMES, AdvisorError, Diver, advise, advisor_state
from engines.registry import get_game
from engines.turn_back_study import shown_row

STUDY_PATH = Path(__file__).parent / "data" / "turn_back_study.json"
DIVERS = 6  # the most a table seats (DSA: 2-6)
LEVELS = 4
STATUSES = [
    ("", "not playing"),
    ("down", "heading down"),
    ("up", "heading back"),
    ("aboard", "back in the submarine"),
]
INITIAL = {
    1: {"status": "down", "depth": 10, "level1": 1, "level2": 1},
    2: {"status": "up", "depth": 6, "level1": 1},
    3: {"status": "aboard"},
}


class AdvisorForm(forms.Form):
    """Which game, dive and air, then each diver: where they are and the chips they carry
    by level. Diver 1 is the one about to decide."""

    game = forms.ChoiceField(choices=[(game_id, get_game(game_id).title) for game_id in GAMES])
    dive = forms.IntegerField(min_value=1, max_value=3, initial=1, label="Dive (1 to 3)")
    air = forms.IntegerField(min_value=0, max_value=25, initial=12, label="Air left")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for number in range(1, DIVERS + 1):
            start = INITIAL.get(number, {})
            statuses = STATUSES[1:2] if number == 1 else STATUSES
            self.fields[f"d{number}_status"] = forms.ChoiceField(
                choices=statuses, required=False, initial=start.get("status", ""), label="Diver"
            )
            self.fields[f"d{number}_depth"] = forms.IntegerField(
                min_value=1,
                max_value=32,
                required=False,
                initial=start.get("depth"),
                label="Spaces below the submarine",
            )
            for level in range(1, LEVELS + 1):
                self.fields[f"d{number}_level{level}"] = forms.IntegerField(
                    min_value=0,
                    max_value=8,
                    required=False,
                    initial=start.get(f"level{level}", 0),
                    label=f"Level {level} chips",
                )

    def divers_fields(self) -> list[dict[str, Any]]:
        """The bound fields of each diver, for the template."""
        return [
            {
                "number": number,
                "status": self[f"d{number}_status"],
                "depth": self[f"d{number}_depth"],
                "levels": [self[f"d{number}_level{level}"] for level in range(1, LEVELS + 1)],
            }
            for number in range(1, DIVERS + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        divers = []
        for number in range(1, DIVERS + 1):
            status = data.get(f"d{number}_status") or ""
            if not status:
                continue
            depth = data.get(f"d{number}_depth")
            if status != "aboard" and depth is None:
                self.add_error(f"d{number}_depth", f"diver {number}: how deep are they?")
                continue
            carried = tuple(
                level
                for level in range(1, LEVELS + 1)
                for _ in range(data.get(f"d{number}_level{level}") or 0)
            )
            divers.append(Diver(0 if status == "aboard" else depth, carried, status))
        if self.errors:
            return data
        try:
            data["state"] = advisor_state(data["game"], data["dive"], data["air"], divers)
        except AdvisorError as exc:
            raise forms.ValidationError(str(exc)) from None
        return data


def evaluate(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each choice of diver 1, best first, in the engine's words."""
    game = get_game(data["game"])
    snapshot = data["state"].snapshot()
    return [
        {**estimate.to_json(), "text": game.describe(estimate.action, snapshot)}
        for estimate in advise(data["game"], data["state"], default_budget())
    ]


@cache
def study() -> list[dict[str, Any]]:
    """The published thresholds (engines/turn_back_study.py), one table per game and load:
    a row per number of divers and dive, a column per depth (empty until computed)."""
    if not STUDY_PATH.exists():
        return []
    tables = []
    for game in json.loads(STUDY_PATH.read_text(encoding="utf-8")):
        for load in sorted({cell["load"] for cell in game["cells"]}):
            rows: dict[tuple[int, int], list[dict[str, Any]]] = {}
            for cell in game["cells"]:
                if cell["load"] == load:
                    rows.setdefault((cell["players"], cell["dive"]), []).append(cell)
            complete = [
                {"players": players, "dive": dive, **shown_row(cells)}
                for (players, dive), cells in sorted(rows.items())
                if len(cells) == len(game["depths"])
            ]
            if complete:  # a table whose computation has not finished a row yet is left out
                tables.append(
                    {
                        "game": game["game"],
                        "load": load,
                        "depths": game["depths"],
                        "rows": complete,
                    }
                )
    return tables
