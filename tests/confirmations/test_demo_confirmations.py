"""The demo data has players who can sign in, one game waiting for their confirmation and
one disputed at an event, for a reason that fits the step its notice names; loading it again
changes none of it."""

import re

import pytest
from demo_support import load_whole_demo
from django.contrib.auth import authenticate
from django.http import HttpRequest

from confirmations.models import Confirmation, Review
from games.models import Game
from games.names import stored_log_name
from notices.models import Kind, Notice


@pytest.mark.django_db
def test_load_demo_prints_player_logins_with_a_pending_and_a_disputed_game():
    output = load_whole_demo()
    line = next(line for line in output.splitlines() if line.startswith("Player logins:"))
    password = line.split("password: ")[1].split()[0]

    for username in ("marina", "nemo", "coral"):
        user = authenticate(HttpRequest(), username=username, password=password)
        assert user is not None and user.player is not None, username
    statuses = sorted(Review.objects.values_list("status", flat=True))
    assert statuses == ["disputed", "pending"]
    disputed = Confirmation.objects.get(answer="disputed")
    assert (disputed.player.handle, disputed.event) == ("nautilus", 3)
    told = Notice.objects.filter(kind=Kind.DISPUTE).values_list("body", flat=True).first()
    assert told.startswith(
        "Nemo Nautilus disputes “the bidding, Kelpie Drift: pass for good”: “demo: "
        "Kelpie bid 2 there, not pass”."
    )
    assert not Game.objects.filter(log__review__isnull=False, counts=True).exists()
    # Printed by name and address, never "log N" or "event N" (issue 24).
    pending = Review.objects.get(status="pending").log
    assert f"  {stored_log_name(pending)} (/games/{pending.pk}/) waits for nemo and coral" in output
    assert (
        f"game (/games/{disputed.review.log_id}/) is disputed by nemo at “{disputed.step}”."
        in output
    )
    assert not re.search(r"\b(log|event) \d", output)

    load_whole_demo()

    assert sorted(Review.objects.values_list("status", flat=True)) == statuses
    assert Confirmation.objects.count() == 4
