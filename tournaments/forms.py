"""The forms of the tournament day: a refused form is shown again with everything typed
and the reason beside the field."""

from __future__ import annotations

from typing import Any

from django import forms

from tournaments.models import TableSeat, Tournament
from tournaments.services.corrections import hand_result_errors, place_field, points_field
from tournaments.services.day import MAX_ROUND_MINUTES, desk_entry_refusal
from tournaments.services.roster import NEW, PastedName, read_names


class RegistrationSettingsForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ["registration_open", "check_in_required", "late_entries_until_round"]
        labels = {
            "registration_open": "Players may register themselves",
            "check_in_required": "Seat only checked-in players",
            "late_entries_until_round": "Late entries until round",
        }

    def clean_late_entries_until_round(self) -> int | None:
        until = self.cleaned_data.get("late_entries_until_round")
        planned = self.instance.rounds_planned
        if until is not None and not 1 <= until <= planned:
            raise forms.ValidationError(f"{self.instance} has rounds 1 to {planned}")
        return until


class PasteNamesForm(forms.Form):
    """A pasted list of names, one a line; names that only look like a known player's get a
    question (same_<line>): which known player they are, or someone new."""

    names = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8, "autocomplete": "off"}),
        label="Names, one a line",
        max_length=20_000,
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.pasted: list[PastedName] = []
        if self.is_bound:
            self.pasted = read_names(self.data.get("names", "")[:20_000], tournament)
        for pasted in self.pasted:
            if pasted.flagged:
                choices = [
                    (player.handle, f"{player.display_name} (@{player.handle}), known already")
                    for player in pasted.alike
                ]
                self.fields[f"same_{pasted.line}"] = forms.ChoiceField(
                    label=f"“{pasted.name}” (line {pasted.line}) looks like a known player: "
                    "who is it?",
                    choices=[*choices, (NEW, f"Someone new: create “{pasted.name}”")],
                    widget=forms.RadioSelect,
                    required=False,
                )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        closed = desk_entry_refusal(self.tournament)
        if closed is not None:
            self.add_error("names", f"nobody can be registered now: {closed}")
        problems = [p.problem for p in self.pasted if p.problem]
        if problems:
            self.add_error("names", "; ".join(problems))
        for pasted in self.pasted:
            key = f"same_{pasted.line}"
            if pasted.flagged and not cleaned.get(key):
                self.add_error(key, "choose the known player, or someone new")
        return cleaned

    def answers(self) -> dict[int, str]:
        return {
            p.line: self.cleaned_data[f"same_{p.line}"]
            for p in self.pasted
            if p.flagged and self.cleaned_data.get(f"same_{p.line}")
        }


class TimerForm(forms.Form):
    minutes = forms.IntegerField(
        min_value=1, max_value=MAX_ROUND_MINUTES, initial=60, label="Round length (minutes)"
    )


class HandResultForm(forms.Form):
    """Each seat's place (1 = best) and points (the game's score, optional)."""

    def __init__(self, *args: Any, seats: list[TableSeat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        for seat in seats:
            name = seat.player.display_name
            self.fields[place_field(seat)] = forms.IntegerField(
                label=f"{name}: place",
                min_value=1,
                max_value=len(seats),
                initial=seat.hand_rank,
            )
            self.fields[points_field(seat)] = forms.FloatField(
                label=f"{name}: points", required=False, initial=seat.hand_score
            )

    def rows(self) -> list[tuple[TableSeat, Any, Any]]:
        return [(seat, self[place_field(seat)], self[points_field(seat)]) for seat in self.seats]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        for field, message in hand_result_errors(self.seats, self.result()).items():
            self.add_error(field, message)
        return cleaned

    def result(self) -> dict[int, tuple[int, float | None]]:
        return {
            seat.pk: (
                self.cleaned_data[place_field(seat)],
                self.cleaned_data.get(points_field(seat)),
            )
            for seat in self.seats
        }
