"""A site with realistic data for the every-page browser test (issue 27): the demo, plus what the
demo lacks: a player with a long name and hundreds of games, an analysed game, an upload and a
game waiting for a signed-in player's confirmation."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass

from demo_support import load_whole_demo
from django.contrib.auth import get_user_model

from analysis.models import Analysis
from analysis.services import jobs
from engines.analysis import Budget
from engines.core.simulate import simulate_game
from engines.registry import GAMES, get_game
from games.models import GameSeat, Source
from games.services.intake import submit_batch, submit_log
from players.models import Player
from stats.services import hexes
from tournaments.models import Tournament

LONG_NAME = "Maximiliana Oceanographer-Abyssalwright"
HEAVY_GAMES = 220
TINY = Budget(target_se=0.2, min_playouts=4, max_playouts=8, batch=4)

# What a visitor must never read: game ids, bot ids ("random-0", "surface-after-3"), engine
# hashes and shell commands.
GAME_SLUG = re.compile(r"(?<![\w/-])(" + "|".join(map(re.escape, GAMES)) + r")(?![\w-])")
ENGINE_HASH = re.compile(r"\bengine [0-9a-f]{7,}\b", re.IGNORECASE)
COMMAND = re.compile(r"manage\.py")
# Logs number seats from 0 and engines say "seat 2 to act"; players read names, and a seat
# number, where one is shown, counts from 1 as at the table ("Seat 1 at table 3").
SEAT_NUMBER = re.compile(r"\bseat (?:0\b|\d+ (?:to|must)\b)", re.IGNORECASE)
# Parts of a page another issue words (the replay viewer and the analysis, whose pictures
# still say "seat 0"): checked for every word but seat numbers.
SEAT_NUMBERS_ALLOWED_IN = ("#viewer", "#analysis")


def bot_ids() -> re.Pattern:
    """Every bot's id as the engines name it, alone ("air-aware") or numbered ("random-0");
    one-word ids only numbered, since "random" is a word too."""
    names = {name for game_id in GAMES for name in get_game(game_id).strategies}
    hyphenated = sorted((n for n in names if "-" in n), key=len, reverse=True)
    alternatives = [re.escape(n) + r"(?:-\d+)?" for n in hyphenated]
    alternatives += [re.escape(n) + r"-\d+" for n in sorted(names) if "-" not in n]
    return re.compile(r"(?<![\w-])(" + "|".join(alternatives) + r")(?![\w-])")


def bot_words() -> set[str]:
    """The one-word bot ids ("grower", "random"): jargon where a table cell or list item
    says nothing else (a bot's name reads "Grower bot")."""
    return {name for game_id in GAMES for name in get_game(game_id).strategies if "-" not in name}


def jargon(text: str, seat_numbers: bool = True) -> list[str]:
    """The builders' words found in a page's visible text (or an e-mail)."""
    found = []
    patterns = [GAME_SLUG, bot_ids(), ENGINE_HASH, COMMAND] + [SEAT_NUMBER] * seat_numbers
    for pattern in patterns:
        found += [m.group(0) for m in pattern.finditer(text)]
    return found


@dataclass
class Site:
    tournament: str
    heavy_player: str
    analysed_log: int
    upload: int
    hex_id: str
    bot_log: int


def realistic_site(uploader: str) -> Site:
    """The demo and more, every log verified in-process (tests run Celery eagerly); the
    hundreds of games are the demo account `uploader`'s upload, so they seat its player; the
    third player has no account, so the games count at once."""
    load_whole_demo()
    user = get_user_model().objects.get(username=uploader)
    regulars = [user.player, Player.objects.get(handle="kelp")]
    rng = random.Random("every-page")
    dive = get_game("deep-dive")
    logs = []
    for index in range(HEAVY_GAMES):
        log = simulate_game(
            dive,
            dive.ruleset({}),
            ["risk-aware", "surface-after-3", "random"],
            rng,
            names=[LONG_NAME, regulars[0].display_name, regulars[1].display_name],
        )
        for seat in log["players"]:
            del seat["strategy"]
        log["meta"] = {"played_at": f"2026-10-{1 + index % 28:02d}T{10 + index % 9}:00:00+00:00"}
        logs.append(json.dumps(log).encode())
    upload = submit_batch(iter(logs), user=user)
    adventure = get_game("deep-sea-adventure")
    analysed = simulate_game(
        adventure,
        adventure.ruleset({}),
        ["air-aware", "grab-2-then-turn", "random"],
        rng,
        names=[LONG_NAME, regulars[0].display_name, regulars[1].display_name],
    )
    for seat in analysed["players"]:
        del seat["strategy"]
    log = submit_log(json.dumps(analysed), user=None, filename="analysed.json")
    log.refresh_from_db()
    analysis, _ = jobs.request_analysis(log, budget=TINY)
    analysis.refresh_from_db()
    assert analysis.status == Analysis.Status.DONE
    heavy = Player.objects.get(display_name=LONG_NAME)
    assert heavy.seats.count() > HEAVY_GAMES, upload.line_errors[:3]
    return Site(
        tournament=Tournament.objects.order_by("pk").first().slug,
        heavy_player=heavy.handle,
        analysed_log=log.pk,
        upload=upload.pk,
        hex_id=next(iter(hexes.hex_names())),
        bot_log=GameSeat.objects.filter(game__source=Source.SIMULATED)
        .order_by("pk")
        .first()
        .game.log_id,
    )
