"""Rebuild every rating from the verified games, in the order they were played."""

from django.core.management.base import BaseCommand

from ratings.services import recompute, recompute_all


class Command(BaseCommand):
    help = "Recompute Elo and OpenSkill ratings from verified games (deterministic)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--game-type", help="only this game type (default: all)")

    def handle(self, *args, game_type: str | None = None, **options) -> None:
        counts = {game_type: recompute(game_type)} if game_type else recompute_all()
        for name, games in counts.items():
            self.stdout.write(f"{name}: {games} rated game(s)")
