"""Demo games for `manage.py load_demo`, verified through the normal path (intake, then the
verification task; eager when no broker is configured): casual Deep Vents games among the
demo tournament's players (source "human"), enough for most of them to leave provisional
status and reach the main leaderboard. (The bot games are stats.demo's.)
"""

from __future__ import annotations

import datetime
import json
import random
from typing import TextIO

from engines.core.simulate import simulate_game
from engines.registry import get_game
from games.services.intake import submit_log
from players.models import Player
from players.services import log_name

CASUAL_GAMES = 30
CASUAL_START = datetime.datetime(2026, 9, 1, 19, 0, tzinfo=datetime.UTC)
# Quick bots only, so the demo (and the tests built on it) load in seconds.
DEMO_STRATEGIES = ("grower", "attacker", "turtle", "random")


def player_strategy(player: Player) -> str:
    """Each player always plays the same bot, so ratings have something to find."""
    return random.Random(player.handle).choice(DEMO_STRATEGIES)


def load(stdout: TextIO) -> None:
    """Weekly club nights before the demo tournament: four random demo players a table."""
    game = get_game("deep-vents")
    ruleset = game.ruleset({"name": "starting-bid"})
    players = list(Player.objects.order_by("handle"))
    if len(players) < 4:
        return
    rng = random.Random("demo-casual")
    for index in range(CASUAL_GAMES):
        table = rng.sample(players, 4)
        log = simulate_game(
            game,
            ruleset,
            [player_strategy(p) for p in table],
            rng,
            names=[log_name(p) for p in table],
        )
        played_at = CASUAL_START + datetime.timedelta(days=index // 3 * 7, hours=index % 3)
        log["meta"] = {"played_at": played_at.isoformat(), "event": "demo club night"}
        submit_log(json.dumps(log), user=None, filename=f"club-night-{index + 1}.json")
    stdout.write(f"Demo casual games: {CASUAL_GAMES} Deep Vents games among demo players.")
