"""Run a made-up event through the real seating service and print how well it paired."""

from __future__ import annotations

import datetime
import json
import random
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection, transaction

from engines.registry import GAMES, TOURNAMENT_GAME, get_game
from players.models import Player
from tournaments.models import Registration, TableSeat, Tournament
from tournaments.services.seating import SeatingError, pairing_quality, seat_next_round


class Command(BaseCommand):
    help = (
        "Seat an event of N players over R rounds through the real seating service, with "
        "random results, and print the repeat meetings and each player's seats. Runs in a "
        "transaction that is rolled back: nothing stays in the database."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--seed", default="1", help="the tournament's seed (any text)")
        parser.add_argument("--game", default=TOURNAMENT_GAME, choices=list(GAMES))
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args: Any, **options: Any) -> None:
        players, rounds = options["players"], options["rounds"]
        if rounds < 1:
            raise CommandError(f"--rounds must be at least 1, not {rounds}")
        game = get_game(options["game"])
        if players < game.min_players:
            raise CommandError(
                f"--players: {game.title} needs at least {game.min_players}, not {players}"
            )
        if Tournament._meta.db_table not in connection.introspection.table_names():
            raise CommandError(
                "the database has no tournament tables: run `manage.py migrate` first "
                "(this command's event is rolled back: nothing of it stays)"
            )
        try:
            figures = run_event(players, rounds, str(options["seed"]), game.id)
        except SeatingError as error:
            raise CommandError(str(error)) from None
        if options["json"]:
            self.stdout.write(json.dumps(figures))
            return
        self.stdout.write(
            f"{players} players, {rounds} rounds, seed {figures['seed']}: "
            f"{figures['repeated_meetings']} repeated meetings "
            f"(by round: {figures['repeats_by_round']}), seat spread {figures['seat_spread']} "
            f"({figures['seat_order']}), slowest round seated in "
            f"{figures['slowest_round_seconds']} s"
        )
        for handle, counts in figures["seats"].items():
            self.stdout.write(f"  {handle}: {' / '.join(map(str, counts))}")


def run_event(players: int, rounds: int, seed: str, game_id: str) -> dict[str, Any]:
    """Seat every round, giving each table a random hand result, then measure; all in a
    transaction rolled back at the end."""
    results = random.Random(f"{seed}:results")
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=f"Pairing quality {seed}",
            slug=f"pairing-quality-{random.Random(seed).getrandbits(40):x}",
            game_type=game_id,
            ruleset=get_game(game_id).default_ruleset,
            rounds_planned=rounds,
            round_one_seeding=Tournament.Seeding.RANDOM,
            starts_on=datetime.date.today(),
            seed=seed,
        )
        # The same handles every run (the registration draw, a tiebreak, is drawn from the
        # handle), so a seed gives the same event on any database; players of these names
        # already stored are reused, inside the transaction rolled back.
        entrants = [
            Player.objects.get_or_create(
                handle=f"pairing-quality-{number:03d}",
                defaults={"display_name": f"Pairing quality player {number:03d}"},
            )[0]
            for number in range(1, players + 1)
        ]
        for player in entrants:
            Registration(tournament=tournament, player=player).save()
        labels = {p.pk: f"player-{number:03d}" for number, p in enumerate(entrants, start=1)}
        slowest, repeats_by_round, sizes = 0.0, [], []
        for _ in range(rounds):
            started = time.perf_counter()
            round_ = seat_next_round(tournament)
            slowest = max(slowest, time.perf_counter() - started)
            seats = list(TableSeat.objects.filter(table__round=round_).order_by("table", "seat"))
            by_table: dict[int, list[TableSeat]] = {}
            for seat in seats:
                by_table.setdefault(seat.table_id, []).append(seat)
            for table in by_table.values():
                places = list(range(1, len(table) + 1))
                results.shuffle(places)
                for seat, place in zip(table, places, strict=True):
                    seat.hand_rank = place
            TableSeat.objects.bulk_update(seats, ["hand_rank"])
            sizes.append(sorted((len(t) for t in by_table.values()), reverse=True))
            repeats_by_round.append(pairing_quality(tournament, round_.number).repeated_this_round)
        quality = pairing_quality(tournament, rounds)
        transaction.set_rollback(True)
    return {
        "players": players,
        "rounds": rounds,
        "seed": seed,
        "game": game_id,
        "table_sizes": sizes,
        "repeated_meetings": quality.repeated_meetings,
        "repeats_by_round": repeats_by_round,
        "seat_spread": quality.seat_spread,
        "seat_order": f"{quality.seat_order.meaning} ({quality.seat_order.rule})",
        "seats": {
            labels[row.player.pk]: row.counts
            for row in sorted(quality.seats, key=lambda r: labels[r.player.pk])
        },
        "slowest_round_seconds": round(slowest, 3),
    }
