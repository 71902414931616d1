"""Fixtures of the browser tests: Django, services and the browser (django_fixtures.py), the
simulated games the chart tests draw, human and simulated games for the main pages, and
simulated games of every game (for the stats pages' charts)."""

import json

import pytest
from django_fixtures import *  # noqa: F403
from snapshot_support import made_once_per_run

from engines.core.simulate import simulate
from engines.registry import get_game
from games.models import GameSeat, Source
from games.services.intake import submit_batch


@pytest.fixture
def made_once(tmp_path_factory):
    """made_once(make): what `make()` returns and the rows it leaves, made by the run's first
    test that asks and put back for later ones (snapshot_support: a COPY is much cheaper than
    simulating and verifying games again). `make` is a module's function, and the first
    fixture of the test to write rows."""
    run_directory = tmp_path_factory.getbasetemp().parent
    return lambda make: made_once_per_run(make, run_directory)


@pytest.fixture
def games(django_db_blocker) -> None:
    """Six simulated Deep Vents games of three players, every other one with a seat no bot
    played: the head-to-head's longest row name, "People (no bot named)", pushes its colour
    bar (and the bar's centred title) to the right."""
    game = get_game("deep-vents")
    logs = list(simulate(game, game.ruleset(None), 3, 6, seed="titles"))
    for log in logs[::2]:
        del log["players"][0]["strategy"]
    submit_batch((json.dumps(log).encode() for log in logs), user=None, source=Source.SIMULATED)


@pytest.fixture
def played_games(django_db_blocker) -> GameSeat:
    """Human Deep Vents games (for ratings and players) and simulated ones of each game; a
    seat of a player."""
    for game_id, players, source in (
        ("deep-vents", 3, Source.HUMAN),
        ("deep-vents", 4, Source.SIMULATED),
        ("deep-dive", 3, Source.SIMULATED),
    ):
        game = get_game(game_id)
        logs = simulate(game, game.ruleset(None), players, 4, seed=f"browser-{source}")
        submit_batch((json.dumps(log).encode() for log in logs), user=None, source=source)
    return GameSeat.objects.filter(player__isnull=False).select_related("player").first()


@pytest.fixture
def simulated_games_of_every_game() -> None:
    """Four simulated games of each game (Deep Vents at three and four players), verified."""
    for game_id, players in (
        ("deep-vents", 4),
        ("deep-vents", 3),
        ("deep-sea-adventure", 3),
        ("deep-dive", 3),
    ):
        game = get_game(game_id)
        logs = simulate(game, game.ruleset(None), players, 4, seed=f"pages-{game_id}-{players}")
        submit_batch((json.dumps(log).encode() for log in logs), user=None, source=Source.SIMULATED)
