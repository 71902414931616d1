"""Demo data for `manage.py load_demo`: three demo players who can sign in, a game of theirs
still waiting for confirmation and one disputed at an event. Idempotent: the logs are the
same each run (stored once), and answers already given stand."""

from __future__ import annotations

import datetime
import json
import random
from typing import TextIO

from django.contrib.auth import get_user_model

from confirmations import services
from confirmations.models import Confirmation, Review
from engines.core.simulate import simulate_game
from engines.registry import TOURNAMENT_GAME, get_game
from games.demo import player_strategy
from games.names import stored_log_name
from games.services.intake import submit_log
from games.services.verification import verify_log
from players.models import Player
from players.services import log_name

# (player handle, username): the demo tournament's players who have accounts.
DEMO_LOGINS = [("marina", "marina"), ("nautilus", "nemo"), ("coral", "coral")]
GUEST = "kelp"  # plays along without an account: never asked
PLAYED_AT = datetime.datetime(2026, 11, 20, 20, 0, tzinfo=datetime.UTC)
DISPUTED_EVENT = 3


def demo_log(seed: str, handles: list[str]) -> str:
    game = get_game(TOURNAMENT_GAME)
    players = list(Player.objects.filter(handle__in=handles))
    players.sort(key=lambda p: handles.index(p.handle))
    rng = random.Random(seed)
    log = simulate_game(
        game,
        game.ruleset(),
        [player_strategy(p, game.id) for p in players],
        rng,
        names=[log_name(player) for player in players],
    )
    log["meta"] = {"played_at": PLAYED_AT.isoformat(), "event": "demo: awaiting answers"}
    return json.dumps(log)


def load(stdout: TextIO, password: str) -> None:
    """Give the demo players their logins, then submit their two games as Marina."""
    handles = [handle for handle, _ in DEMO_LOGINS]
    if Player.objects.filter(handle__in=[*handles, GUEST]).count() < len(handles) + 1:
        return  # the demo tournament's players are not there
    users = {}
    for handle, username in DEMO_LOGINS:
        user, _ = get_user_model().objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.com"}
        )
        user.set_password(password)
        user.save()
        Player.objects.filter(handle=handle, user__isnull=True).update(user=user)
        users[handle] = user
    marina, nemo = users["marina"], users["nautilus"]
    table = [*handles, GUEST]
    pending = submit_log(demo_log("demo-pending", table), user=marina, filename="pending.json")
    disputed = submit_log(demo_log("demo-disputed", table), user=marina, filename="dispute.json")
    for log in (pending, disputed):
        verify_log(log.pk)
    if Review.objects.filter(log=disputed, status="pending").exists():
        services.dispute(
            disputed.pk, nemo, DISPUTED_EVENT, "demo: Kelpie bid 2 there, not pass", at_table=False
        )
    logins = ", ".join(username for _, username in DEMO_LOGINS)
    # Each game by its name, its page's address beside it (the two share a name: same
    # players, same evening); the disputed moment in the game's words.
    step = Confirmation.objects.filter(review__log=disputed, answer="disputed").values_list(
        "step", flat=True
    )
    stdout.write(
        f"Player logins: {logins}  password: {password}\n"
        f"  {stored_log_name(pending)} ({pending.get_absolute_url()}) waits for nemo and "
        f"coral to confirm it;\n"
        f"  the same table's other game ({disputed.get_absolute_url()}) is disputed by nemo "
        f"at “{step.first() or ''}”.\n"
    )
