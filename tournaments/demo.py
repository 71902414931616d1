"""Demo data: one finished Deep Vents tournament played by bots under players' names, and
one a week ahead open for registration, so a visitor can walk a tournament day's journey.

Each table's log is simulated with the opening bidder drawn at seating (DV-3), submitted as
the table's result and verified at once, like a real event where every log is uploaded
before the next round is seated.
"""

from __future__ import annotations

import datetime
import json
import random
from typing import Any, TextIO

from django.db import transaction
from django.utils import timezone

from engines.core.schema import FORMAT
from engines.core.simulate import play_out
from engines.registry import get_game
from games.demo import player_strategy
from games.services.verification import verify_log
from players.models import Player
from players.services import log_name
from tournaments.models import Registration, Table, Tournament
from tournaments.services.results import attach_log
from tournaments.services.seating import seat_next_round
from tournaments.services.table_recording import seated_setup

DEMO_SLUG = "demo-deep-vents-open"
UPCOMING_SLUG = "demo-deep-vents-club-night"
# Already registered for the upcoming one; the demo's players with a login (Marina, Nemo,
# Coral) are left to register themselves.
UPCOMING_ENTRANTS = ["kelp", "angler", "gulper", "isopod", "squid"]
DEMO_ENTRANTS = [
    ("marina", "Marina Abyss"),
    ("nautilus", "Nemo Nautilus"),
    ("coral", "Coral Reefson"),
    ("kelp", "Kelpie Drift"),
    ("angler", "Ann Angler"),
    ("vent-runner", "Vera Vent"),
    ("gulper", "Gus Gulper"),
    ("isopod", "Iris Isopod"),
    ("squid", "Sid Squid"),
    ("smoker", "Sam Smoker"),
    ("yeti", "Yetta Crab"),
]


def simulated_table_log(
    table: Table, rng: random.Random, played_at: datetime.datetime
) -> dict[str, Any]:
    """A complete log of the table's game, played by each seated player's bot."""
    tournament = table.round.tournament
    game = get_game(tournament.game_type)
    ruleset = game.ruleset({"name": tournament.ruleset})
    seats = list(table.seats.select_related("player").order_by("seat"))
    setup = game.new_setup(ruleset, len(seats), rng)  # draws a first seat too: same stream
    setup.update(seated_setup(table, seats))  # the seating's first seat (DV-3, DV-16)
    bots = [game.strategies[player_strategy(s.player, game.id)]() for s in seats]
    state = game.new_state(ruleset, len(seats), setup)
    events = play_out(state, bots, rng)
    return {
        "format": FORMAT,
        "game": game.id,
        "ruleset": ruleset.to_json(),
        "players": [{"name": log_name(s.player)} for s in seats],
        "setup": setup,
        "events": events,
        "result": state.outcome().to_result(),
        "meta": {
            "played_at": played_at.isoformat(),
            "event": tournament.name,
            "table": f"round {table.round.number}, table {table.number}",
        },
    }


def play_round(tournament: Tournament, rng: random.Random, starts: datetime.datetime) -> None:
    """Seat the next round and play, submit and verify every table's game."""
    round_ = seat_next_round(tournament)
    played_at = starts + datetime.timedelta(hours=2 * round_.number)
    for table in round_.tables.all():
        log = simulated_table_log(table, rng, played_at)
        stored = attach_log(table, json.dumps(log), user=None, filename=f"{table}.json")
        verify_log(stored.pk)


@transaction.atomic
def final_table_log() -> list[Any]:
    """The log of the demo tournament's last round's first table (its leaders), if any."""
    table = (
        Table.objects.filter(round__tournament__slug=DEMO_SLUG, log__isnull=False)
        .select_related("log")
        .order_by("-round__number", "number")
        .first()
    )
    return [table.log] if table is not None else []


def load(stdout: TextIO) -> None:
    load_finished(stdout)
    load_upcoming(stdout)


def load_upcoming(stdout: TextIO) -> None:
    """A club night a week from now, open for registration, once."""
    if Tournament.objects.filter(slug=UPCOMING_SLUG).exists():
        return
    starts_on = timezone.localdate() + datetime.timedelta(days=7)
    tournament = Tournament.objects.create(
        name="Deep Vents Club Night (demo)",
        slug=UPCOMING_SLUG,
        rounds_planned=3,
        starts_on=starts_on,
        ends_on=starts_on,
        seed="demo-club-night",
        registration_open=True,
    )
    for player in Player.objects.filter(handle__in=UPCOMING_ENTRANTS):
        Registration.objects.create(tournament=tournament, player=player)
    stdout.write(f"Demo tournament: {tournament.name}, open for registration.\n")


def load_finished(stdout: TextIO) -> None:
    """Create the finished demo tournament once; running again leaves it as it is."""
    if Tournament.objects.filter(slug=DEMO_SLUG).exists():
        stdout.write("Demo tournament: already there.\n")
        return
    starts = timezone.now().replace(hour=10, minute=0, second=0, microsecond=0)
    starts -= datetime.timedelta(days=30)
    tournament = Tournament.objects.create(
        name="Deep Vents Open (demo)",
        slug=DEMO_SLUG,
        rounds_planned=3,
        starts_on=starts.date(),
        ends_on=starts.date(),
        seed="demo",
    )
    for handle, name in DEMO_ENTRANTS:
        player, _ = Player.objects.get_or_create(handle=handle, defaults={"display_name": name})
        Registration.objects.create(tournament=tournament, player=player)
    rng = tournament.rng("demo-games")
    for _ in range(tournament.rounds_planned):
        play_round(tournament, rng, starts)
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    stdout.write(
        f"Demo tournament: {tournament.name}, {len(DEMO_ENTRANTS)} players, "
        f"{tournament.rounds_planned} rounds.\n"
    )
