"""Tournaments to seat in the pairing tests: players registered, random hand results."""

from __future__ import annotations

import datetime
import random

from players.models import Player
from tournaments.models import Registration, Round, TableSeat, Tournament


def tournament_of(
    players: int, *, slug: str = "cup", seed: str = "pairing", **fields
) -> Tournament:
    """A tournament seeded at random for round 1, with `players` registered players."""
    tournament = Tournament.objects.create(
        name=slug.title(),
        slug=slug,
        starts_on=datetime.date(2026, 6, 1),
        seed=seed,
        round_one_seeding=Tournament.Seeding.RANDOM,
        **fields,
    )
    for number in range(1, players + 1):
        player, _ = Player.objects.get_or_create(
            handle=f"diver-{number:02d}", defaults={"display_name": f"Diver {number:02d}"}
        )
        Registration.objects.create(tournament=tournament, player=player)
    return tournament


def give_random_results(round_: Round, rng: random.Random) -> None:
    """Hand results (places 1..n in a random order) at every table of the round."""
    for table in round_.tables.all():
        seats = list(table.seats.all())
        places = list(range(1, len(seats) + 1))
        rng.shuffle(places)
        for seat, place in zip(seats, places, strict=True):
            seat.hand_rank = place
        TableSeat.objects.bulk_update(seats, ["hand_rank"])
