"""A game's page (/games/<log id>/): verdict, seats, bids, scores and ranks; who may see it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from engines.core.errors import LogError
from engines.core.log import dumps
from engines.core.replay import replay
from games.models import Game, GameLog, GameSeat, Upload
from tests.games_support import simulated_log


def stored_log(log: dict[str, Any], *, user: Any = None, published: bool = True) -> GameLog:
    """Store a log with the verdict replay gives it (the rows verification would write)."""
    raw = dumps(log)
    upload = Upload.objects.create(submitted_by=user, published=published)
    stored = GameLog.objects.create(
        upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type=log["game"]
    )
    try:
        replayed = replay(log)
    except LogError as error:
        stored.status, stored.error = GameLog.Status.REJECTED, error.to_dict()
        stored.save()
        return stored
    stored.status, stored.verified_at = GameLog.Status.VERIFIED, timezone.now()
    stored.save()
    snapshot = replayed.state.snapshot()
    order = snapshot.get("order") or []
    bids = {b["seat"]: b["amount"] for b in snapshot.get("bids") or [] if "amount" in b}
    game = Game.objects.create(
        log=stored,
        game_type=log["game"],
        ruleset=replayed.ruleset.name,
        edition=replayed.ruleset.edition,
        player_count=len(log["players"]),
        source="simulated",
        played_at=timezone.now(),
    )
    outcome = replayed.outcome
    for seat, player in enumerate(log["players"]):
        GameSeat.objects.create(
            game=game,
            seat=seat,
            name=player["name"],
            strategy=player.get("strategy", ""),
            score=outcome.scores[seat],
            rank=outcome.ranks[seat],
            winner=seat in outcome.winners,
            summary=seat_summary(order, bids, seat),
        )
    return stored


def seat_summary(order: list[int], bids: dict[int, int], seat: int) -> dict[str, int] | None:
    """The seat's summary as Deep Vents' engine writes it, read here from the snapshot."""
    summary = {"turn": order.index(seat) + 1} if seat in order else {}
    if seat in bids:
        summary["bid"] = bids[seat]
    return summary or None


@pytest.fixture
def member(db) -> Any:
    return get_user_model().objects.create_user("member")


def test_a_verified_deep_vents_game_shows_seats_bids_scores_and_ranks(client, db):
    log = simulated_log("deep-vents", seed=3, players=3)
    stored = stored_log(log)
    seats = list(stored.game.seats.order_by("seat"))

    response = client.get(f"/games/{stored.pk}/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "Deep Vents" in page
    assert "Verdict: Verified" in page
    assert [s.name for s in response.context["seats"]] == [s.name for s in seats]
    for seat in seats:
        assert f"<td>{seat.name}" in page
        assert f"<td>{seat.score:g}</td>" in page
    assert "<th>Turn order</th><th>Bid</th>" in page
    bidder = next(seat for seat in seats if "bid" in (seat.summary or {}))
    assert f"<td>{bidder.summary['turn']}</td><td>{bidder.summary['bid']}</td>" in page
    assert "(winner)" in page


def test_a_game_whose_engine_summarises_no_seat_shows_no_bid_or_turn_order(client, db):
    stored = stored_log(simulated_log("deep-dive", seed=2, players=2))

    page = client.get(f"/games/{stored.pk}/").content.decode()

    assert "<th>Strategy</th><th>Score</th>" in page
    assert "Bid" not in page


def test_a_rejected_log_shows_the_engines_precise_error_in_the_games_words(client, db):
    log = simulated_log("deep-dive", seed=2, players=2)
    log["players"] = [{"name": "Marina Abyss"}, {"name": "Nemo"}]
    log["events"][1]["seat"] = 0  # Marina dives first, Nemo second (DD-2)
    stored = stored_log(log)

    response = client.get(f"/games/{stored.pk}/")

    page = response.content.decode()
    assert stored.status == GameLog.Status.REJECTED
    assert stored.error["text"].startswith("event 1 (seat 1): ")  # the API's, unchanged
    assert "Verdict: Rejected" in page
    assert (
        '<p class="engine-error">Round 1, Marina Abyss: it is not Marina Abyss&#x27;s turn: '
        "Nemo must roll the colour die [DD-2]</p>"
    ) in page
    # The state just before the bad event, linked without its index in words.
    assert '<a href="#event-0" id="error-moment">See the table just before it</a>' in page
    assert not re.search(r"event \d|seat \d", page.replace("#event-", ""))


def test_a_log_that_stops_too_soon_links_to_where_it_stops(client, db):
    log = simulated_log("deep-dive", seed=2, players=2)
    log["events"] = log["events"][:5]
    stored = stored_log(log)

    page = client.get(f"/games/{stored.pk}/").content.decode()

    assert stored.error["index"] == 5
    assert '<a href="#event-4" id="error-moment">See the table where the log stops</a>' in page


def queued_log() -> GameLog:
    raw = dumps(simulated_log("deep-dive", seed=4, players=2))
    upload = Upload.objects.create()
    return GameLog.objects.create(
        upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type="deep-dive"
    )


def test_a_log_still_queued_says_it_waits_for_a_worker_and_polls_its_verdict(client, db):
    stored = queued_log()

    page = client.get(f"/games/{stored.pk}/").content.decode()
    polled = client.get(f"/games/{stored.pk}/verdict/", HTTP_HX_REQUEST="true")

    assert "Verdict: Queued" in page
    assert "Waiting for a worker" in page and "reload" not in page
    assert f'hx-get="/games/{stored.pk}/verdict/"' in page and "htmx" in page
    assert 'id="viewer"' in page
    assert "HX-Refresh" not in polled.headers and "Verdict: Queued" in polled.content.decode()


def test_once_verified_the_polled_verdict_asks_the_page_to_reload_and_polls_no_more(client, db):
    stored = queued_log()
    GameLog.objects.filter(pk=stored.pk).update(status=GameLog.Status.VERIFIED)

    polled = client.get(f"/games/{stored.pk}/verdict/", HTTP_HX_REQUEST="true")

    assert polled.headers["HX-Refresh"] == "true"
    assert "hx-get" not in client.get(f"/games/{stored.pk}/").content.decode()


def test_a_missing_log_is_a_404(client, db):
    assert client.get("/games/999999/").status_code == 404


def test_anonymous_visitors_read_published_games(client, db):
    stored = stored_log(simulated_log("deep-sea-adventure", seed=1, players=2))

    assert client.get(f"/games/{stored.pk}/").status_code == 200


def test_an_unpublished_upload_is_hidden_from_everyone_but_its_submitter_and_staff(client, member):
    owner = get_user_model().objects.create_user("owner")
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    stored = stored_log(simulated_log("deep-dive", seed=5, players=2), user=owner, published=False)
    url = f"/games/{stored.pk}/"

    anonymous = client.get(url).status_code
    client.force_login(member)
    other = client.get(url).status_code
    other_replay = client.get(url + "replay/").status_code
    client.force_login(owner)
    own = client.get(url).status_code
    client.force_login(staff)
    staff_view = client.get(url).status_code

    assert (anonymous, other, other_replay, own, staff_view) == (404, 404, 404, 200, 200)


def test_the_page_carries_the_viewer_configuration(client, db):
    log = simulated_log("deep-vents", seed=6, players=2)
    stored = stored_log(log)

    response = client.get(f"/games/{stored.pk}/")

    page = response.content.decode()
    config = response.context["viewer"]
    assert config["url"] == f"/games/{stored.pk}/replay/"
    assert config["events"] == len(log["events"])
    assert config["players"] == [p["name"] for p in log["players"]]
    assert config["glossary"]["hexes"]["anglerfish"] == "Anglerfish"
    assert json.loads(
        page.split('id="viewer-config" type="application/json">')[1].split("</script>")[0]
    )["events"] == len(log["events"])
    assert "games/viewer.js" in page
    assert "games/pictures.js" in page
