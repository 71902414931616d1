"""Confirmation: a verified game naming claimed players other than its submitter counts for
ratings, standings and statistics only once they confirm it, or once the window passes with
nobody disputing; a dispute sets it aside until staff decide."""

from __future__ import annotations

import datetime
import json

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from confirmations import services
from confirmations.models import Confirmation, Review
from games.models import Game, GameLog
from games.services.intake import submit_log
from games.services.verification import verify_logs
from players.models import Player
from ratings.models import Rating, RatingChange
from ratings.services import recompute
from stats.models import SeatLines
from tests.confirmation_support import (
    player_with_login,
    running_table,
    submitted_game,
)
from tests.ratings_support import deep_vents_log
from tests.stats_support import seat_lines_of
from tournaments.models import Table, TableSeat

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bea", "Cid"]


def counts_everywhere(game: Game) -> bool:
    """Rated and in the statistics, and flagged as counting (all three agree or fail)."""
    game.refresh_from_db()
    rated = RatingChange.objects.filter(game=game).exists()
    in_stats = SeatLines.objects.filter(game=game).exists()
    assert rated == in_stats == game.counts, (rated, in_stats, game.counts)
    return game.counts


@pytest.fixture
def ann_bea_cid():
    return [player_with_login(name, f"{name.lower()}@example.org") for name in NAMES]


def test_a_game_naming_other_claimed_players_waits_for_them(ann_bea_cid):
    ann = ann_bea_cid[0]

    game = submitted_game(NAMES, ann.user)

    assert not counts_everywhere(game)
    review = Review.objects.get(log=game.log)
    assert review.status == Review.Status.PENDING
    asked = set(review.confirmations.values_list("player__handle", flat=True))
    assert asked == {"bea", "cid"}  # not the submitter


def test_guests_and_the_submitter_need_no_confirmation():
    ann = player_with_login("Ann")

    game = submitted_game(["Ann", "Guest One", "Guest Two"], ann.user)

    assert counts_everywhere(game)
    assert not Review.objects.exists()


def test_games_verified_together_are_each_asked_or_counted_as_if_alone(ann_bea_cid):
    ann, bea = ann_bea_cid[0].user, ann_bea_cid[1].user
    seatings = [
        (NAMES, ann),  # asks Bea and Cid
        (["Ann", "Guest One", "Guest Two"], ann),  # counts at once
        (["Bea", "Ann", "Eve"], bea),  # asks Ann
    ]
    logs = [
        submit_log(json.dumps(deep_vents_log(names, seed, timezone.now())), user=submitter)
        for seed, (names, submitter) in enumerate(seatings, start=1)
    ]

    verify_logs([log.pk for log in logs])  # one group: its reviews opened together

    games = [GameLog.objects.get(pk=log.pk).game for log in logs]
    assert [counts_everywhere(game) for game in games] == [False, True, False]
    asked = {
        review.log_id: set(review.confirmations.values_list("player__handle", flat=True))
        for review in Review.objects.all()
    }
    assert asked == {logs[0].pk: {"bea", "cid"}, logs[2].pk: {"ann"}}


def test_with_confirmation_switched_off_every_verified_game_counts(ann_bea_cid, settings):
    settings.GAMES_REQUIRE_CONFIRMATION = False

    game = submitted_game(NAMES, ann_bea_cid[0].user)

    assert counts_everywhere(game)


def test_the_last_confirmation_makes_the_game_count(ann_bea_cid):
    ann, bea, cid = ann_bea_cid
    game = submitted_game(NAMES, ann.user)

    services.confirm(game.log_id, bea.user)
    assert not counts_everywhere(game)
    services.confirm(game.log_id, cid.user)

    assert counts_everywhere(game)
    review = Review.objects.get(log=game.log)
    assert (review.status, review.counted_because) == ("counted", "confirmed")
    assert Rating.objects.filter(player__in=[ann, bea, cid]).count() == 3


def test_confirming_twice_changes_nothing_the_second_time(ann_bea_cid):
    ann, bea, cid = ann_bea_cid
    game = submitted_game(NAMES, ann.user)
    services.confirm(game.log_id, bea.user)
    services.confirm(game.log_id, cid.user)
    ratings = list(Rating.objects.order_by("pk").values_list("rating", "games"))
    first = Confirmation.objects.get(player=cid).answered_at

    services.confirm(game.log_id, cid.user)

    assert list(Rating.objects.order_by("pk").values_list("rating", "games")) == ratings
    assert RatingChange.objects.filter(game=game).count() == 3
    assert len(seat_lines_of(game)) == 3
    assert Confirmation.objects.get(player=cid).answered_at == first


def test_a_dispute_sets_the_game_aside_and_disputing_again_changes_nothing(ann_bea_cid):
    ann, bea, cid = ann_bea_cid
    game = submitted_game(NAMES, ann.user)

    services.dispute(game.log_id, bea.user, 3, "I bid 2, not 3")
    again = services.dispute(game.log_id, bea.user, 5, "something else")
    services.confirm(game.log_id, cid.user)

    assert (again.event, again.reason) == (3, "I bid 2, not 3")
    assert Review.objects.get(log=game.log).status == Review.Status.DISPUTED
    assert not counts_everywhere(game)


def test_a_dispute_must_name_an_event_of_the_log_and_a_reason(ann_bea_cid):
    ann, bea, _ = ann_bea_cid
    game = submitted_game(NAMES, ann.user)
    events = len(json.loads(game.log.raw)["events"])

    no_such_event = f"no event {events}: .* events 0 to {events - 1}"
    with pytest.raises(services.BadDispute, match=no_such_event):
        services.dispute(game.log_id, bea.user, events, "wrong")
    with pytest.raises(services.BadDispute, match="event must be the index"):
        services.dispute(game.log_id, bea.user, "three", "wrong")
    with pytest.raises(services.BadDispute, match="reason"):
        services.dispute(game.log_id, bea.user, 1, "   ")

    assert Confirmation.objects.get(player=bea).answer == Confirmation.Answer.WAITING
    assert Review.objects.get(log=game.log).status == Review.Status.PENDING


def test_only_the_players_asked_may_answer(ann_bea_cid):
    ann, _, _ = ann_bea_cid
    outsider = player_with_login("Dee")
    game = submitted_game(NAMES, ann.user)

    with pytest.raises(services.NotAsked, match="does not wait for dee"):
        services.confirm(game.log_id, outsider.user)
    with pytest.raises(services.NotAsked):
        services.confirm(game.log_id, ann.user)  # the submitter is not asked


def test_staff_accepting_a_disputed_game_makes_it_count(ann_bea_cid, admin_user):
    ann, bea, _ = ann_bea_cid
    game = submitted_game(NAMES, ann.user)
    services.dispute(game.log_id, bea.user, 0, "not our game")

    services.accept(Review.objects.get(log=game.log).pk, admin_user)

    assert counts_everywhere(game)
    assert Review.objects.get(log=game.log).resolved_by == admin_user


def test_confirming_after_disputing_is_refused_naming_the_disputed_step_not_the_log(
    ann_bea_cid,
):
    ann, bea, _ = ann_bea_cid
    game = submitted_game(NAMES, ann.user, seed=1)
    services.dispute(game.log_id, bea.user, 4, "I took position 2")

    with pytest.raises(services.ConfirmationError) as refused:
        services.confirm(game.log_id, bea.user)

    assert refused.value.message == (
        "you disputed this game at “turn 1, Ann: take Vampire Squid at position 1 (pay 0)”; "
        "staff decide it now"
    )


def test_staff_rejecting_a_disputed_game_keeps_it_out_for_good(ann_bea_cid, admin_user):
    ann, bea, cid = ann_bea_cid
    game = submitted_game(NAMES, ann.user)
    services.dispute(game.log_id, bea.user, 0, "not our game")

    services.reject(Review.objects.get(log=game.log).pk, admin_user)
    with pytest.raises(services.ConfirmationError, match="rejected"):
        services.confirm(game.log_id, cid.user)
    services.count_lapsed_reviews(timezone.now() + datetime.timedelta(days=30))

    assert not counts_everywhere(game)
    recompute(game.game_type)
    assert not counts_everywhere(game)


def test_a_pending_game_nobody_disputes_counts_once_the_window_has_passed(ann_bea_cid, settings):
    settings.GAMES_CONFIRMATION_WINDOW_HOURS = 48
    ann, bea, _ = ann_bea_cid
    game = submitted_game(NAMES, ann.user)
    services.confirm(game.log_id, bea.user)  # Cid stays silent
    verified_at = Review.objects.get(log=game.log).opened_at

    assert services.count_lapsed_reviews(verified_at + datetime.timedelta(hours=47)) == 0
    assert not counts_everywhere(game)
    assert services.count_lapsed_reviews(verified_at + datetime.timedelta(hours=48)) == 1

    assert counts_everywhere(game)
    assert Review.objects.get(log=game.log).counted_because == Review.Reason.SILENCE


def test_a_game_disputed_in_time_does_not_count_when_the_window_passes(ann_bea_cid):
    ann, bea, _ = ann_bea_cid
    game = submitted_game(NAMES, ann.user)
    services.dispute(game.log_id, bea.user, 2, "that roll was a 5")

    assert services.count_lapsed_reviews(timezone.now() + datetime.timedelta(days=3)) == 0

    assert not counts_everywhere(game)


def test_beat_runs_the_window_job_and_it_counts_lapsed_games(ann_bea_cid, settings):
    from confirmations.tasks import count_lapsed_games_task

    schedule = settings.CELERY_BEAT_SCHEDULE
    assert any(e["task"] == count_lapsed_games_task.name for e in schedule.values())
    settings.GAMES_CONFIRMATION_WINDOW_HOURS = 0  # the window has passed already
    game = submitted_game(NAMES, ann_bea_cid[0].user)

    assert count_lapsed_games_task.delay().get() == 1

    assert counts_everywhere(game)


def test_a_game_counted_days_later_slots_into_the_ratings_in_played_order(ann_bea_cid):
    """Ann's pending game was played first; games played after it count meanwhile. Once it
    counts, the ratings are those of all games replayed in played_at order."""
    ann = ann_bea_cid[0]
    start = timezone.now() - datetime.timedelta(days=5)
    early = submitted_game(NAMES, ann.user, seed=1, played_at=start)
    later = [
        submitted_game(["Ann", "Bea", "Guest"], None, seed=seed, played_at=start + delta)
        for seed, delta in ((2, datetime.timedelta(hours=1)), (3, datetime.timedelta(hours=2)))
    ]
    assert all(counts_everywhere(game) for game in later)
    before = dict(Rating.objects.values_list("player_id", "rating"))

    services.count_lapsed_reviews(timezone.now() + datetime.timedelta(days=3))

    assert counts_everywhere(early)
    incremental = dict(Rating.objects.values_list("player_id", "rating"))
    assert incremental != before
    recompute(early.game_type)
    assert dict(Rating.objects.values_list("player_id", "rating")) == pytest.approx(incremental)
    ann_changes = RatingChange.objects.filter(player=ann).order_by("played_at")
    assert [c.game_id for c in ann_changes] == [early.pk, *(g.pk for g in later)]


def test_players_asked_get_an_email_where_they_gave_an_address(
    django_capture_on_commit_callbacks,
):
    ann = player_with_login("Ann")
    player_with_login("Bea", "bea@example.org")
    player_with_login("Cid")  # no address: told on the site only

    with django_capture_on_commit_callbacks(execute=True):
        game = submitted_game(NAMES, ann.user)

    assert [m.to for m in mail.outbox] == [["bea@example.org"]]
    assert reverse("games:log", args=[game.log_id]) in mail.outbox[0].body


def test_a_reverified_game_keeps_the_answers_given(ann_bea_cid):
    from games.services.reverification import reverify_log

    ann, bea, cid = ann_bea_cid
    game = submitted_game(NAMES, ann.user)
    services.confirm(game.log_id, bea.user)
    services.confirm(game.log_id, cid.user)

    reverify_log(game.log_id)

    rederived = Game.objects.get(log_id=game.log_id)
    assert counts_everywhere(rederived)
    assert Confirmation.objects.filter(answer="confirmed").count() == 2


def test_a_table_result_attached_by_an_organiser_counts_at_once(admin_user):
    players = [player_with_login(name) for name in NAMES]
    table = running_table(players)

    game = submitted_game(NAMES, admin_user, table=table)

    assert counts_everywhere(game)
    table.refresh_from_db()
    assert table.game == game


def test_a_table_result_uploaded_by_a_seated_player_counts_for_standings_once_confirmed():
    from tournaments.services.standings import tournament_standings

    ann, bea, cid = (player_with_login(name) for name in NAMES)
    table = running_table([ann, bea, cid])
    game = submitted_game(NAMES, ann.user, table=table)
    tournament = table.round.tournament

    assert all(row.tables == 0 for row in tournament_standings(tournament))
    services.confirm(game.log_id, bea.user)
    services.confirm(game.log_id, cid.user)

    assert all(row.tables == 1 for row in tournament_standings(tournament))
    assert Player.objects.filter(user__isnull=False).count() == 3


def test_a_table_result_attached_by_one_of_its_organisers_counts_at_once(django_user_model):
    players = [player_with_login(name) for name in NAMES]
    table = running_table(players)
    organiser = django_user_model.objects.create_user("organiser")
    table.round.tournament.organisers.add(organiser)

    game = submitted_game(NAMES, organiser, table=table)

    assert counts_everywhere(game)
    assert not Review.objects.exists()


def test_tables_verified_together_are_each_decided_as_if_alone_in_queries_not_growing_with_them(
    django_user_model, django_assert_num_queries
):
    players = [player_with_login(name) for name in NAMES]
    first = running_table(players)
    second = Table.objects.create(round=first.round, number=2)
    for seat in first.seats.all():
        TableSeat.objects.create(
            table=second, seat=seat.seat, player=seat.player, opening_bidder=seat.opening_bidder
        )
    organiser = django_user_model.objects.create_user("organiser")
    first.round.tournament.organisers.add(organiser)
    by_organiser = submitted_game(NAMES, organiser, table=first)
    by_a_player = submitted_game(NAMES, players[0].user, table=second)
    games = list(
        Game.objects.filter(pk__in=[by_organiser.pk, by_a_player.pk])
        .select_related("log__upload__submitted_by")
        .prefetch_related("seats")
        .order_by("pk")
    )

    # Tables and organisers are read once for all the games, then the claimed players.
    with django_assert_num_queries(3):
        together = services.players_to_ask(games)

    alone = {**services.players_to_ask(games[:1]), **services.players_to_ask(games[1:])}
    assert together == alone == {by_a_player.pk: players[1:]}
