"""Rebuild every statistics aggregate from scratch."""

from django.core.management.base import BaseCommand

from stats.services.aggregate import rebuild_all


class Command(BaseCommand):
    help = (
        "Rebuild the statistics cubes from the stored per-game lines; with --from-facts, "
        "first derive every verified game's lines again from its replay facts."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--from-facts",
            action="store_true",
            help="re-derive the per-game lines from Game.facts (after changing definitions)",
        )

    def handle(self, *args, from_facts: bool = False, **options) -> None:
        timings = rebuild_all(from_facts=from_facts)
        for name, seconds in timings.items():
            if name == "games":
                self.stdout.write(f"{int(seconds)} games re-derived")
            else:
                self.stdout.write(f"{name}: {seconds:.2f} s")
        total = sum(v for k, v in timings.items() if k not in ("games", "lines"))
        self.stdout.write(self.style.SUCCESS(f"cubes rebuilt in {total:.2f} s"))
