"""The players' seat tally (stats.models.PlayerSeatTally): per player and turn order, the
seats of counted games, their wins, ranks, bids and bids' total, kept by the fold as games
are counted, retracted (a reverify, a game set aside, a log deleted) and players merged;
equal to the same sums computed here from the game seats, folded or not, and to a rebuild
(issue 25: the player page read every seat of the player for them)."""

from __future__ import annotations

import datetime
from collections import defaultdict

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, GameLog, GameSeat, Source, Upload
from games.services import reverification
from games.services.removal import delete_log, set_aside_game
from games.services.reverification import reverify_log
from players.merge import merge_players
from players.models import Player
from stats.models import SEAT_TALLY_SUMS, PlayerSeatTally, PlayerSeatTallyDelta
from stats.services.aggregate import fold_deltas, rebuild_all, remove_game
from tests.games_support import stored_game
from tests.ratings_support import hours_ago, verified_game
from tests.stats_support import counted_in_statistics

pytestmark = pytest.mark.django_db

Tally = dict[tuple[str, int], tuple[int, ...]]


def summed_from_seats() -> Tally:
    """Per player's handle and turn order (0: none), the seats of games that count summed
    as the page summed them: seats, wins, ranks, seats with a bid, their bids."""
    sums: defaultdict[tuple[str, int], list[int]] = defaultdict(lambda: [0] * 5)
    seats = GameSeat.objects.filter(player__isnull=False, game__counts=True)
    for seat in seats.select_related("player"):
        summary = seat.summary or {}
        total = sums[(seat.player.handle, summary.get("turn") or 0)]
        total[0] += 1
        total[1] += seat.winner
        total[2] += seat.rank
        if summary.get("bid") is not None:
            total[3] += 1
            total[4] += summary["bid"]
    return {key: tuple(total) for key, total in sums.items()}


def handles() -> dict[int, str]:
    return dict(Player.objects.values_list("pk", "handle"))


def live() -> Tally:
    """The tally with the deltas not folded yet, as the page reads it (rows of no seat left
    out: a retracted game's deltas may leave some until the fold)."""
    names = handles()
    sums: defaultdict[tuple[str, int], list[int]] = defaultdict(lambda: [0] * 5)
    rows = [
        *PlayerSeatTally.objects.values_list("player_id", "turn_order", *SEAT_TALLY_SUMS),
        *PlayerSeatTallyDelta.objects.values_list("player", "turn_order", *SEAT_TALLY_SUMS),
    ]
    for player, turn_order, *values in rows:
        total = sums[(names[player], turn_order)]
        for at, value in enumerate(values):
            total[at] += value
    return {key: tuple(total) for key, total in sums.items() if total[0]}


def stored() -> Tally:
    """The tally's rows alone (after a fold)."""
    names = handles()
    rows = PlayerSeatTally.objects.values_list("player_id", "turn_order", *SEAT_TALLY_SUMS)
    return {(names[player], turn): tuple(values) for player, turn, *values in rows}


def folded_equals_rebuilt() -> Tally:
    """Fold, check the rows against the seats and against a rebuild; the tally."""
    fold_deltas()
    assert not PlayerSeatTallyDelta.objects.exists()
    folded = stored()
    assert folded == summed_from_seats()
    rebuild_all()
    assert stored() == folded
    return folded


@pytest.fixture
def games(db) -> list[Game]:
    return [
        verified_game(["ann", "bob", "cyd"], seed=41, played_at=hours_ago(5)),
        verified_game(["ann", "bob"], seed=42, played_at=hours_ago(4)),
        verified_game(["bob", "cyd", "dee", "ann"], seed=43, played_at=hours_ago(3)),
        verified_game(["annie", "cyd"], seed=44, played_at=hours_ago(2)),
    ]


def test_verified_games_tally_their_seats_by_turn_order_before_and_after_the_fold(games):
    assert PlayerSeatTallyDelta.objects.exists()  # not folded yet: the page reads the deltas
    assert live() == summed_from_seats()
    assert {turn for _, turn in live()} - {0}  # the games have turn orders
    assert any(values[3] for values in live().values())  # and bids

    folded_equals_rebuilt()
    rebuild_all(from_facts=True)
    assert stored() == summed_from_seats()


def test_a_reverify_whose_scores_changed_moves_the_games_seats_out_and_in_again(games, monkeypatch):
    fold_deltas()
    before = live()
    # As if an engine fix changed the scores: the stored game no longer matches its replay.
    monkeypatch.setattr(reverification, "seat_results", lambda game: [])

    assert reverify_log(games[2].log_id) is not None

    assert not Game.objects.filter(pk=games[2].pk).exists()  # derived again, a new game
    assert live() == summed_from_seats() == before
    folded_equals_rebuilt()


def test_a_game_set_aside_or_deleted_leaves_the_tally_and_leaves_no_row_of_zeros(games):
    set_aside_game(games[1].log)
    assert live() == summed_from_seats()
    delete_log(games[3].log_id)  # annie's only game
    assert live() == summed_from_seats()

    folded = folded_equals_rebuilt()
    assert not any(handle == "annie" for handle, _ in folded)
    assert not PlayerSeatTally.objects.filter(n=0).exists()


def test_a_merge_moves_the_duplicates_tally_folded_or_not_to_the_player_kept(games):
    ann, annie = Player.objects.get(handle="ann"), Player.objects.get(handle="annie")
    fold_deltas()  # annie's first game folded, the next one's still deltas
    verified_game(["annie", "bob"], seed=45, played_at=hours_ago(1))

    merge_players(ann, [annie])

    assert live() == summed_from_seats()
    assert not PlayerSeatTally.objects.filter(player_id=annie.pk).exists()
    assert not PlayerSeatTallyDelta.objects.filter(player=annie.pk).exists()
    folded_equals_rebuilt()


def test_a_claim_merged_by_staff_moves_the_interim_names_tally(games):
    from accounts.services import merge_names

    ann, annie = Player.objects.get(handle="ann"), Player.objects.get(handle="annie")
    merge_names(ann, annie)

    assert live() == summed_from_seats()
    folded_equals_rebuilt()


# --- any order of counting, retracting, merging and folding --------------------------------

SUMMARIES = st.one_of(
    st.none(),
    st.fixed_dictionaries(
        {"turn": st.integers(1, 4)}, optional={"bid": st.one_of(st.none(), st.integers(0, 9))}
    ),
)
SEATS = st.lists(
    st.tuples(st.sampled_from([0, 1, 2, None]), st.booleans(), SUMMARIES), min_size=2, max_size=4
)
COUNT = st.tuples(st.just("count"), SEATS)
# A few games counted first, then any steps: a merge or a retraction has seats to move.
STEPS = st.tuples(
    st.lists(COUNT, min_size=2, max_size=4),
    st.lists(
        st.one_of(
            COUNT,
            st.tuples(st.just("retract"), st.integers(0, 20)),
            st.tuples(st.just("merge"), st.integers(0, 2), st.integers(0, 2)),
            st.tuples(st.just("fold")),
        ),
        max_size=8,
    ),
).map(lambda both: both[0] + both[1])


@pytest.mark.usefixtures("db")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS)
def test_the_tally_is_the_counted_seats_summed_after_any_steps_and_equals_a_rebuild(steps):
    with transaction.atomic():
        upload = Upload.objects.create(filename="steps", source=Source.HUMAN)
        players = [Player.objects.create(handle=f"p{i}", display_name=f"P{i}") for i in range(3)]
        counted: list[Game] = []
        start = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
        for number, (step, *args) in enumerate(steps):
            if step == "count":
                game = stored_game(
                    upload, number, start + datetime.timedelta(hours=number), player_count=4
                )
                for seat, (who, won, summary) in enumerate(args[0]):
                    GameSeat.objects.create(
                        game=game,
                        seat=seat,
                        player=None if who is None else players[who % len(players)],
                        name=f"seat {seat}",
                        score=seat,
                        rank=1 + seat,
                        winner=won,
                        summary=summary,
                    )
                counted_in_statistics([game])
                counted.append(game)
            elif step == "retract" and counted:
                game = counted.pop(args[0] % len(counted))
                remove_game(game)
                Game.objects.filter(pk=game.pk).update(counts=False)
            elif step == "merge" and len(players) > 1:
                keep, duplicate = (players[at % len(players)] for at in args)
                if keep != duplicate:
                    merge_players(keep, [duplicate])
                    players.remove(duplicate)
            elif step == "fold":
                fold_deltas()
            assert live() == summed_from_seats()
        folded_equals_rebuilt()
        transaction.set_rollback(True)  # each example starts from no games
    assert not GameLog.objects.filter(upload__filename="steps").exists()
