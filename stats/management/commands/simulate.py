"""`manage.py simulate GAME --games N`: the simulation lab from the shell.

The batch is split into chunks that Celery workers play and submit like any upload
(source "simulated"); with no broker configured they run in-process before this returns.
"""

import time

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse

from engines import LogError
from stats.models import SimulationBatch
from stats.services import simulation


class Command(BaseCommand):
    help = "Play bot games as a simulation batch (Celery chunks) verified like any upload."

    def add_arguments(self, parser):
        parser.add_argument("game", help="Game id, e.g. deep-vents.")
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument("--players", type=int, default=3)
        parser.add_argument("--ruleset", help="Ruleset name (default: the game's default).")
        parser.add_argument("--strategies", nargs="*", help="One bot per seat (default random).")
        parser.add_argument(
            "--all-combinations", action="store_true", help="Cycle through every line-up."
        )
        parser.add_argument("--seed", default="manage-simulate", help="Same seed, same games.")
        parser.add_argument("--chunk-size", type=int, default=simulation.DEFAULT_CHUNK)
        parser.add_argument("--wait", action="store_true", help="Print progress until done.")

    def handle(self, *args, **options) -> None:
        try:
            with transaction.atomic():
                batch = simulation.create_batch(
                    game_id=options["game"],
                    ruleset=options["ruleset"] or simulation.default_ruleset(options["game"]),
                    players=options["players"],
                    games=options["games"],
                    strategies=options["strategies"],
                    all_combinations=options["all_combinations"],
                    seed=options["seed"],
                    chunk_size=options["chunk_size"],
                )
                simulation.launch(batch)
        except LogError as error:
            raise CommandError(str(error)) from None
        self.report(batch, wait=options["wait"])

    def report(self, batch: SimulationBatch, wait: bool) -> None:
        while True:
            batch.refresh_from_db()
            progress = simulation.progress(batch)
            finished = progress["status"] in (SimulationBatch.Status.DONE, "failed")
            if finished or not wait:
                break
            self.stdout.write(f"{batch.name}: {progress['percent']}%", ending="\r")
            time.sleep(1)
        self.stdout.write(
            # Its page's address beside its name: where to follow it.
            f"{batch.name} ({reverse('stats:batch', args=[batch.pk])}): {batch.games} games, "
            f"{progress['submitted']} submitted, {progress['verified']} verified, "
            f"{progress['rejected']} rejected, {progress['duplicates']} already stored "
            f"({progress['status']})"
        )
        if progress["error"]:
            raise CommandError(progress["error"])
