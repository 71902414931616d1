"""`manage.py compute_turn_back_table`: precompute the turn-back advisor's table."""

import json
import time

from django.core.management.base import BaseCommand

from analysis.advisor import TABLE_PATH
from engines.analysis import engine_version
from engines.analysis.turn_back import GAMES, turn_back_table


class Command(BaseCommand):
    help = (
        "For Deep Sea Adventure and Boost, each strategy, load and depth: the largest air at "
        "which turning back beats swimming on (a few minutes; written to analysis/data/)."
    )

    def handle(self, *args, **options) -> None:
        started = time.perf_counter()
        tables = []
        for game_id in GAMES:
            table = turn_back_table(game_id)
            table["engine_version"] = engine_version(game_id)
            tables.append(table)
            self.stdout.write(f"{game_id}: {len(table['rows'])} rows")
        TABLE_PATH.write_text(json.dumps(tables, indent=1) + "\n", encoding="utf-8")
        self.stdout.write(f"wrote {TABLE_PATH} in {time.perf_counter() - started:.0f} s")
