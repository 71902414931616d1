"""`manage.py compute_turn_back_study`: the turn-back thresholds of Deep Sea Adventure and
Boost by the number of divers, the dive, the depth and the load (engines/turn_back_study.py;
written to analysis/data/ after every cell; a run started again keeps the cells already
there). `--game` computes one game into its own file, so the two can run side by side; the
files are then merged with `--merge`."""

import json
import time
from pathlib import Path

from django.core.management.base import BaseCommand

from analysis.advisor import STUDY_PATH
from engines.analysis.turn_back import GAMES
from engines.registry import get_game
from engines.turn_back_study import (
    STUDY_BUDGET,
    STUDY_DEPTHS,
    STUDY_DIVES,
    STUDY_LOADS,
    STUDY_PLAYERS,
    study_cell,
)

KEY = ("players", "dive", "depth", "load")


class Command(BaseCommand):
    help = "Compute the turn-back study (analysis/data/turn_back_study.json)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--game", choices=GAMES, help="only this game (runs in parallel)")
        parser.add_argument("--merge", action="store_true", help="merge the games' files")

    def handle(self, *args, **options) -> None:
        if options["merge"]:
            self.merge()
            return
        started = time.perf_counter()
        path = game_path(options["game"]) if options["game"] else STUDY_PATH
        kept = {
            (study["game"], tuple(cell[k] for k in KEY)): cell
            for known in {path, STUDY_PATH}
            if known.exists()
            for study in json.loads(known.read_text(encoding="utf-8"))
            for cell in study["cells"]
        }
        games = [
            {
                "game": game_id,
                "strategy": playout_name(game_id),
                "budget": STUDY_BUDGET.to_json(),
                "depths": list(STUDY_DEPTHS),
                "cells": [],
            }
            for game_id in GAMES
            if options["game"] in (None, game_id)
        ]
        for study in games:
            # A load at a time: a stopped run has whole tables (one per game and load).
            for load in STUDY_LOADS:
                for players in STUDY_PLAYERS:
                    for dive in STUDY_DIVES:
                        for depth in STUDY_DEPTHS:
                            key = (study["game"], (players, dive, depth, load))
                            cell = kept.get(key) or study_cell(
                                study["game"], players, dive, depth, load
                            )
                            study["cells"].append(cell)
                            path.write_text(json.dumps(games) + "\n", encoding="utf-8")
                    self.stdout.write(
                        f"{study['game']}, load {load}, {players} divers: "
                        f"{time.perf_counter() - started:.0f} s"
                    )
        self.stdout.write(f"wrote {path} in {time.perf_counter() - started:.0f} s")

    def merge(self) -> None:
        games = []
        for game_id in GAMES:
            path = game_path(game_id)
            games += json.loads(path.read_text(encoding="utf-8"))
            path.unlink()
        STUDY_PATH.write_text(json.dumps(games) + "\n", encoding="utf-8")
        self.stdout.write(f"wrote {STUDY_PATH}")


def game_path(game_id: str) -> Path:
    return STUDY_PATH.with_suffix(f".{game_id}.json")


def playout_name(game_id: str) -> str:
    """The bots the study's playouts drew from, and how often they played at random."""
    strategy = get_game(game_id).playout_strategy()
    pool = getattr(strategy, "pool", (strategy,))
    randomness = getattr(strategy, "randomness", 0)
    return f"{'/'.join(bot.name for bot in pool)}, random {randomness:.0%}"
