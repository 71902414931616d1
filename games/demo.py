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
from dataclasses import dataclass
from typing import TextIO

from engines.core.bots import drawable
from engines.core.simulate import simulate_game
from engines.registry import get_game
from games.services.intake import submit_log
from players.models import Player
from players.services import log_name

CASUAL_START = datetime.datetime(2026, 9, 1, 19, 0, tzinfo=datetime.UTC)


@dataclass(frozen=True)
class ClubNights:
    """A game's club nights: games played, players at a table and the ruleset (None: the
    game's default). `bots`: the bots players choose among (None: every bot the engine
    offers). `named`: its seeds and file names carry the game's id, to tell them apart; the
    first game recorded here has none, so the demo it has always loaded is found again (as
    duplicates)."""

    games: int
    seats: int
    ruleset: str | None = None
    bots: tuple[str, ...] | None = None
    named: bool = True

    def name(self, base: str, game_id: str, separator: str) -> str:
        """A seed or file name of this game's club nights."""
        return f"{base}{separator}{game_id}" if self.named else base


# Data per game, not a branch: Deep Vents' quick bots only, so the demo (and the tests built
# on it) load in seconds.
CLUB_NIGHTS = {
    "deep-vents": ClubNights(
        30, 4, "starting-bid", ("grower", "attacker", "turtle", "random"), named=False
    ),
    "deep-sea-adventure": ClubNights(24, 4),
    "deep-sea-adventure-boost": ClubNights(18, 4),
    "deep-dive": ClubNights(24, 3),
}


def player_strategy(player: Player, game_id: str) -> str:
    """Each player always plays the same bot at a game, so ratings have something to find."""
    nights = CLUB_NIGHTS[game_id]
    bots = nights.bots or drawable(get_game(game_id).strategies)
    return random.Random(nights.name(player.handle, game_id, ":")).choice(bots)


def load(stdout: TextIO) -> None:
    """Weekly club nights before the demo tournament: random demo players at each table."""
    players = list(Player.objects.order_by("handle"))
    submitted = 0
    for offset, (game_id, nights) in enumerate(CLUB_NIGHTS.items()):
        if len(players) < nights.seats:
            continue
        game = get_game(game_id)
        ruleset = game.ruleset({"name": nights.ruleset} if nights.ruleset else {})
        rng = random.Random(nights.name("demo-casual", game_id, ":"))
        prefix = nights.name("club-night", game_id, "-")
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
    stdout.write(
        f"Demo club nights: {submitted} games of {len(CLUB_NIGHTS)} games among demo players.\n"
    )
