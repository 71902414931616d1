"""Verification: a stored log replayed into a Game with seats, or a rejected verdict."""

import json
import threading

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from games_support import human_log, simulated_log, submit, text

from engines.core.log import dumps
from games.models import Game, GameLog, Source, Upload
from games.services import verification
from games.services.intake import submit_log
from games.services.verification import verify_log
from games.signals import game_verified
from players.models import Player
from players.names import handle_base
from tests.ratings_support import deep_vents_log

pytestmark = pytest.mark.django_db
__all__ = ["submit"]


def test_a_human_log_becomes_a_game_with_seats_scores_ranks_and_players(submit):
    log = human_log(seed=1)

    stored = submit(text(log))

    assert stored.status == GameLog.Status.VERIFIED
    game = stored.game
    assert (game.game_type, game.source, game.player_count) == ("deep-dive", "human", 3)
    seats = list(game.seats.order_by("seat"))
    assert [s.score for s in seats] == log["result"]["scores"]
    assert [s.winner for s in seats] == [i in log["result"]["winners"] for i in range(3)]
    assert all(s.rank >= 1 for s in seats)
    assert [s.player.handle for s in seats] == ["marina-abyss", "nemo", "coral"]
    assert Player.objects.get(handle="marina-abyss").display_name == "Marina Abyss"
    assert game.facts and all("type" in fact for fact in game.facts)


def test_a_known_player_is_matched_by_canonical_name_not_created_again(submit):
    marina = Player.objects.create(handle="marina-abyss", display_name="Marina Abyss")

    stored = submit(text(human_log(seed=2, names=("MARINA  abyss", "Nemo"))))

    assert stored.game.seats.get(seat=0).player == marina
    assert Player.objects.filter(handle__startswith="marina").count() == 1


def test_simulated_seats_have_no_player_but_keep_their_strategy(submit):
    log = simulated_log(seed=3)

    stored = submit(text(log), source=Source.SIMULATED)

    seats = list(stored.game.seats.order_by("seat"))
    assert stored.game.source == Source.SIMULATED
    assert all(seat.player is None for seat in seats)
    assert [s.strategy for s in seats] == [p["strategy"] for p in log["players"]]
    assert not Player.objects.exists()


def test_the_date_in_meta_is_when_the_game_was_played(submit):
    log = human_log(seed=4)
    log["meta"] = {"date": "2026-03-14"}

    stored = submit(text(log))

    assert stored.game.played_at.date().isoformat() == "2026-03-14"


def test_a_contradicted_result_is_rejected_with_the_engines_error(submit):
    log = human_log(seed=5)
    log["result"]["scores"][0] += 1

    stored = submit(text(log))

    assert stored.status == GameLog.Status.REJECTED
    assert stored.error["kind"] == "result-mismatch"
    assert stored.error["field"] == "result.scores"
    assert not Game.objects.exists()
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    "game_id", ["deep-vents", "deep-sea-adventure", "deep-sea-adventure-boost", "deep-dive"]
)
def test_the_right_scores_claimed_for_the_wrong_seats_are_a_result_mismatch(submit, game_id):
    log = simulated_log(game_id, seed=7, players=3)
    scores = log["result"]["scores"]
    permuted = scores[1:] + scores[:1]  # every seat claims the next seat's score
    assert permuted != scores and sorted(permuted) == sorted(scores)
    log["result"]["scores"] = permuted  # the claimed winners are left as replay has them

    stored = submit(text(log))

    assert stored.status == GameLog.Status.REJECTED
    assert stored.error["kind"] == "result-mismatch"
    assert stored.error["field"] == "result.scores"
    assert str(permuted) in stored.error["message"]
    assert not Game.objects.exists()


def test_an_illegal_event_is_rejected_with_its_index_and_seat(submit):
    log = human_log(seed=6)
    log["events"][3]["seat"] = (log["events"][3].get("seat", 0) + 1) % 3

    stored = submit(text(log))

    assert stored.status == GameLog.Status.REJECTED
    assert stored.error["kind"] in {"illegal", "malformed"}
    assert stored.error["index"] == 3 or stored.error["field"]


def test_verifying_again_changes_nothing_and_signals_only_once(submit):
    heard = []

    def receiver(game, **kwargs):
        heard.append(game.pk)

    game_verified.connect(receiver)
    try:
        stored = submit(text(human_log(seed=7)))
        again = verify_log(stored.pk)
    finally:
        game_verified.disconnect(receiver)

    assert again.status == GameLog.Status.VERIFIED
    assert Game.objects.count() == 1
    assert heard == [stored.game.pk]
    assert again.attempts == 1


def test_a_log_out_of_attempts_ends_in_error_not_another_replay(settings):
    stored = submit_log(text(human_log(seed=8)), user=None)  # its task is never run here
    GameLog.objects.filter(pk=stored.pk).update(
        status=GameLog.Status.VERIFYING, attempts=settings.GAMES_VERIFY_MAX_ATTEMPTS
    )

    result = verify_log(stored.pk)

    assert result.status == GameLog.Status.ERROR
    assert f"{settings.GAMES_VERIFY_MAX_ATTEMPTS} times" in result.error["message"]
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("name", "handle"),
    [
        ("Marina Abyss", "marina-abyss"),
        ("  Nemo!! ", "nemo"),
        ("Zoë", "zoe"),
        ("海", "海"),
        ("Zoë Ångström-Løvdal", "zoe-angstrom-lovdal"),
        ("Ærø Łódź Straße", "aero-lodz-strasse"),
    ],
)
def test_player_handles_are_slugified_names(name, handle):
    assert handle_base(name) == handle


@pytest.mark.skipif(
    settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql",
    reason="concurrent writers need PostgreSQL (SQLite writes one transaction at a time)",
)
@pytest.mark.django_db(transaction=True)
def test_two_groups_meeting_a_new_player_at_once_do_not_wait_for_each_other(monkeypatch):
    # Names earlier tests' players had (gone with their data) are not known to have players.
    monkeypatch.setattr(verification, "NAMES_WITH_PLAYERS", set())
    # Two game types: each group takes its own ratings ledger, so only the player is shared.
    dive, vents = Upload.objects.create(), Upload.objects.create()
    first = [stored(dive, text(human_log(seed=1, names=("Newcomer", "Nemo", "Coral"))))]
    second = [stored(vents, dumps(deep_vents_log(["Coral", "Newcomer"], 2, timezone.now())))]
    holding, release, errors = threading.Event(), threading.Event(), []
    store_games = verification.store_games

    def store_and_hold(*args, **kwargs):
        games = store_games(*args, **kwargs)
        if threading.current_thread() is not main:
            holding.set()  # the first group's transaction stays open, its rows written
            release.wait(timeout=60)
        return games

    def verify_first() -> None:
        try:
            verification.verify_logs(first)
        except Exception as error:
            errors.append(error)
        finally:
            holding.set()
            connection.close()  # this thread's own

    main = threading.current_thread()
    monkeypatch.setattr(verification, "store_games", store_and_hold)
    thread = threading.Thread(target=verify_first)
    thread.start()
    try:
        assert holding.wait(timeout=60)
        with connection.cursor() as cursor:  # a wait on the first group's rows fails this
            cursor.execute("SET lock_timeout = '5s'")
        verification.verify_logs(second)
    finally:
        release.set()
        thread.join()
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")
    assert errors == []
    assert set(GameLog.objects.values_list("status", flat=True)) == {GameLog.Status.VERIFIED}
    assert Player.objects.filter(handle="newcomer").count() == 1


def stored(upload: Upload, raw: str) -> int:
    """A log stored as intake stores it (queued), no message sent."""
    return GameLog.objects.create(
        upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type=json.loads(raw)["game"]
    ).pk
