"""Demo games for `manage.py load_demo`, verified through the normal path (intake, then the
verification task, once load_demo commits: by the worker, or in-process with no broker): club
nights among the demo tournament's players (source "human"), of every game, enough for most
of them to leave provisional status and reach each game's leaderboard. The players are people;
their moves are made by the engines' bots. (The lab's bot games are stats.demo's.)
"""

from __future__ import annotations

import datetime
import json
import random
from typing import TextIO

from engines.core.bots import drawable
from engines.core.game import DemoTables
from engines.core.simulate import simulate_game
from engines.registry import GAMES, TOURNAMENT_GAME, get_game
from games.services.intake import submit_log
from players.models import Player
from players.services import log_name

CASUAL_START = datetime.datetime(2026, 9, 1, 19, 0, tzinfo=datetime.UTC)


def club_nights() -> dict[str, DemoTables]:
    """Each game's club nights, as its engine describes them (Game.demo_tables)."""
    return {game_id: get_game(game_id).demo_tables for game_id in GAMES}


def named(base: str, game_id: str, separator: str) -> str:
    """A seed or file name of a game's club nights: it carries the game's id, to tell them
    apart, except the tournament game's, the first recorded here, so the demo it has always
    loaded is found again (as duplicates)."""
    return base if game_id == TOURNAMENT_GAME else f"{base}{separator}{game_id}"


def player_strategy(player: Player, game_id: str) -> str:
    """Each player always plays the same bot at a game, so ratings have something to find."""
    game = get_game(game_id)
    bots = game.demo_tables.bots or drawable(game.strategies)
    return random.Random(named(player.handle, game_id, ":")).choice(bots)


def load(stdout: TextIO) -> None:
    """Weekly club nights before the demo tournament: random demo players at each table."""
    players = list(Player.objects.order_by("handle"))
    submitted = 0
    for offset, (game_id, nights) in enumerate(club_nights().items()):
        if len(players) < nights.seats:
            continue
        game = get_game(game_id)
        ruleset = game.ruleset({"name": nights.ruleset} if nights.ruleset else {})
        rng = random.Random(named("demo-casual", game_id, ":"))
        prefix = named("club-night", game_id, "-")
        for index in range(nights.games):
            table = rng.sample(players, nights.seats)
            log = simulate_game(
                game,
                ruleset,
                [player_strategy(p, game_id) for p in table],
                rng,
                names=[log_name(p) for p in table],
            )
            played_at = CASUAL_START + datetime.timedelta(
                days=index // 3 * 7 + offset, hours=index % 3
            )
            for seat in log["players"]:
                del seat["strategy"]  # people at a club night, whoever chose their moves
            log["meta"] = {"played_at": played_at.isoformat(), "event": "demo club night"}
            submit_log(json.dumps(log), user=None, filename=f"{prefix}-{index + 1}.json")
            submitted += 1
    stdout.write(f"Demo club nights: {submitted} games of {len(GAMES)} games among demo players.\n")
