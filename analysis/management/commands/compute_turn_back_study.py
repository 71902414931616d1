"""`manage.py compute_turn_back_study`: the turn-back thresholds of Deep Sea Adventure and
Boost by the number of divers, the dive, the depth and the load (engines/turn_back_study.py;
about 20 minutes on one core; written to analysis/data/ after every cell, so a stopped run
keeps what it found)."""

import json
import time

from django.core.management.base import BaseCommand

from analysis.advisor import STUDY_PATH
from engines.analysis.evaluator import playout_strategy
from engines.analysis.turn_back import GAMES
from engines.turn_back_study import (
    STUDY_BUDGET,
    STUDY_DEPTHS,
    STUDY_DIVES,
    STUDY_LOADS,
    STUDY_PLAYERS,
    study_cell,
)


class Command(BaseCommand):
    help = "Compute the turn-back study (analysis/data/turn_back_study.json)."

    def handle(self, *args, **options) -> None:
        started = time.perf_counter()
        games = [
            {
                "game": game_id,
                "strategy": playout_strategy(game_id),
                "budget": STUDY_BUDGET.to_json(),
                "depths": list(STUDY_DEPTHS),
                "cells": [],
            }
            for game_id in GAMES
        ]
        for study in games:
            for players in STUDY_PLAYERS:
                for dive in STUDY_DIVES:
                    for load in STUDY_LOADS:
                        for depth in STUDY_DEPTHS:
                            study["cells"].append(
                                study_cell(study["game"], players, dive, depth, load)
                            )
                            STUDY_PATH.write_text(json.dumps(games) + "\n", encoding="utf-8")
                self.stdout.write(
                    f"{study['game']}, {players} divers: {time.perf_counter() - started:.0f} s"
                )
        self.stdout.write(f"wrote {STUDY_PATH} in {time.perf_counter() - started:.0f} s")
