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
from engines.core.simulate import simulate_game
from engines.registry import get_game
from games.services.intake import submit_log
from players.models import Player
from players.services import log_name

CASUAL_START = datetime.datetime(2026, 9, 1, 19, 0, tzinfo=datetime.UTC)
# Per game: games played, players at a table, and the ruleset. Deep Vents' quick bots only, so
# the demo (and the tests built on it) load in seconds.
CLUB_NIGHTS = {
    "deep-vents": (30, 4, "starting-bid"),
    "deep-sea-adventure": (24, 4, None),
    "deep-sea-adventure-boost": (18, 4, None),
    "deep-dive": (24, 3, None),
}
DEMO_STRATEGIES = ("grower", "attacker", "turtle", "random")


def player_strategy(player: Player, game_id: str = "deep-vents") -> str:
    """Each player always plays the same bot at a game, so ratings have something to find."""
    if game_id == "deep-vents":
        return random.Random(player.handle).choice(DEMO_STRATEGIES)
    return random.Random(f"{player.handle}:{game_id}").choice(
        drawable(get_game(game_id).strategies)
    )


def load(stdout: TextIO) -> None:
    """Weekly club nights before the demo tournament: random demo players at each table."""
    players = list(Player.objects.order_by("handle"))
    submitted = 0
    for offset, (game_id, (games, seats, ruleset_name)) in enumerate(CLUB_NIGHTS.items()):
        if len(players) < seats:
            continue
        game = get_game(game_id)
        ruleset = game.ruleset({"name": ruleset_name} if ruleset_name else {})
        # Deep Vents keeps the seed it always had, so a demo loaded before is found again.
        rng = random.Random("demo-casual" if game_id == "deep-vents" else f"demo-casual:{game_id}")
        for index in range(games):
            table = rng.sample(players, seats)
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
            prefix = "club-night" if game_id == "deep-vents" else f"club-night-{game_id}"
            submit_log(json.dumps(log), user=None, filename=f"{prefix}-{index + 1}.json")
            submitted += 1
    stdout.write(
        f"Demo club nights: {submitted} games of {len(CLUB_NIGHTS)} games among demo players.\n"
    )
