"""`manage.py simulate GAME --games N`: bot games played and submitted like any upload."""

import io

from django.core.management.base import BaseCommand, CommandError

from engines import LogError, get_game
from engines.core.log import dumps
from engines.core.simulate import simulate
from games.models import Source
from games.services.intake import submit_batch


class Command(BaseCommand):
    help = "Play bot games and submit their logs as one simulated batch (verified by workers)."

    def add_arguments(self, parser):
        parser.add_argument("game", help="Game id, e.g. deep-vents.")
        parser.add_argument("--games", type=int, default=10)
        parser.add_argument("--players", type=int, default=3)
        parser.add_argument("--seed", default="manage-simulate")
        parser.add_argument("--strategies", nargs="*", help="One bot per seat (default random).")
        parser.add_argument("--ruleset", help="Ruleset name (default: the game's default).")

    def handle(self, *args, game, games, players, seed, strategies, ruleset, **options) -> None:
        try:
            engine = get_game(game)
            rules = engine.ruleset({"name": ruleset} if ruleset else None)
            lines = io.BytesIO()
            for log in simulate(engine, rules, players, games, seed, strategies):
                lines.write(dumps(log).encode() + b"\n")
        except LogError as error:
            raise CommandError(str(error)) from None
        lines.seek(0)
        upload = submit_batch(
            lines, user=None, source=Source.SIMULATED, filename=f"simulate-{game}-{seed}.jsonl"
        )
        self.stdout.write(
            f"upload {upload.pk}: {upload.logs.count()} {game} games queued, "
            f"{len(upload.duplicates)} already stored"
        )
