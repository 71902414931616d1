"""Seat the next round of a tournament (the same as the admin action)."""

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament
from tournaments.services.seating import SeatingError, seat_next_round


class Command(BaseCommand):
    help = "Seat the next round of a tournament and print the tables."

    def add_arguments(self, parser) -> None:
        parser.add_argument("tournament", help="the tournament's slug")

    def handle(self, *args, tournament: str, **options) -> None:
        try:
            found = Tournament.objects.get(slug=tournament)
        except Tournament.DoesNotExist:
            raise CommandError(f"no tournament with slug {tournament!r}") from None
        try:
            round_ = seat_next_round(found)
        except SeatingError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"{found}: round {round_.number}")
        for table in round_.tables.prefetch_related("seats__player"):
            names = [
                f"{s.player.handle}{' (opens bidding)' if s.opening_bidder else ''}"
                for s in table.seats.all()
            ]
            self.stdout.write(f"  table {table.number}: {', '.join(names)}")
