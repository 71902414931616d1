"""A player's page sends its queries of the player's id alone (seat sums, the page's games
list keys, ratings, registrations, an open claim, the rating history, the hex tally, the
analyses of the player's seats) in one round trip on PostgreSQL
(pages.services.profiles.page_rows, common.compiled.read), and shows what it shows when
each is asked alone: every page of the games list, a page past the last, a page below 1
and one that is no number (issue 25). On SQLite, or on a connection binding values on the
server, each is asked alone."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import ClaimRequest
from analysis.services.summary import SEATED_ANALYSES
from common import compiled
from games.models import GameSeat, Source, Upload
from pages.services import profiles
from players.models import Player
from stats.services.hexes import HEX_TALLY
from tests.games_support import stored_game
from tests.ratings_support import hours_ago, verified_game
from tests.stats_support import counted_in_statistics
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db

PAGES = [None, "1", "2", "3", "4", "0", "-1", "x", "2.0"]


@pytest.fixture
def ann() -> Player:
    """Ann's rated games, then stored games enough for three pages of her games list (one a
    game she sits twice in, across pages 1 and 2), two registrations, and an open claim."""
    verified_game(["ann", "bob", "cyd"], seed=21, played_at=hours_ago(300))
    verified_game(["ann", "bob"], seed=22, played_at=hours_ago(299))
    ann, bob = Player.objects.get(handle="ann"), Player.objects.get(handle="bob")
    upload = Upload.objects.create(filename="more", source=Source.HUMAN)
    now = timezone.now().replace(microsecond=0)
    stored = []
    for number in range(2 * profiles.GAMES_PER_PAGE + 5):
        played = now - datetime.timedelta(hours=number)
        game = stored_game(upload, number, played, player_count=3, counts=number % 9 != 4)
        stored.append(game)
        sitting = [ann, bob, ann if number == profiles.GAMES_PER_PAGE - 2 else bob]
        for seat, player in enumerate(sitting):
            GameSeat.objects.create(
                game=game,
                seat=seat,
                player=player,
                name=player.display_name,
                score=seat + number / 4,
                rank=1 + (number + seat) % 3,
                winner=(number + seat) % 3 == 0,
                summary={"turn": 1 + (number + seat) % 3, "bid": number % 5},
            )
    counted_in_statistics([game for game in stored if game.counts])
    for slug in ("reef-open", "trench-cup"):
        tournament = Tournament.objects.create(
            name=slug.title(), slug=slug, starts_on=datetime.date(2026, 6, 1)
        )
        Registration.objects.create(tournament=tournament, player=ann)
    asking = get_user_model().objects.create_user("asking", password="x")
    ClaimRequest.objects.create(user=asking, player=ann)
    return ann


def shown(profile: dict) -> dict:
    """What the page shows of its context, in plain values."""
    return {
        "claim": profile["claim"],
        "ratings": [
            (r.game_type, r.rating, r.openskill_display, r.games, r.wins)
            for r in profile["ratings"]
        ],
        "registrations": [
            (r.tournament.name, r.tournament.get_absolute_url(), r.tournament.status)
            for r in profile["registrations"]
        ],
        "average_bid": profile["average_bid"],
        "seat_results": profile["seat_results"],
        "page": (profile["seats"].number, profile["seats"].paginator.num_pages),
        "games_rows": str(profile["games_rows"]),
        "rating_chart": str(profile["rating_chart"]),
        "favourite_hexes": profile["favourite_hexes"],
    }


def asked_alone(player: Player, page: str | None, monkeypatch) -> dict:
    with monkeypatch.context() as patched:
        patched.setattr(profiles, "page_rows", lambda player, page: {})
        return shown(profiles.player_profile(player, page))


def test_every_page_shows_with_its_queries_fetched_together_what_it_shows_asking_each(
    ann, monkeypatch
):
    for page in PAGES:
        together = shown(profiles.player_profile(ann, page))

        assert together == asked_alone(ann, page, monkeypatch), page
    assert len(shown(profiles.player_profile(ann, "2"))["registrations"]) == 2
    first = shown(profiles.player_profile(ann, None))
    assert first["claim"]["state"] == "awaiting approval"
    assert first["favourite_hexes"] and "rating-history" in first["rating_chart"]


def test_the_players_queries_are_one_round_trip_on_postgresql_and_asked_alone_elsewhere(ann):
    with CaptureQueriesContext(connection) as queries:
        fetched = profiles.page_rows(ann, "2")

    # elsewhere the history's reading is three queries (ratings.history.history_rows_here)
    assert len(queries) == (1 if connection.vendor == "postgresql" else 10)
    assert set(fetched) == {
        profiles.SEAT_SUMS,
        profiles.SEAT_KEYS,
        profiles.RATINGS,
        profiles.REGISTRATIONS,
        profiles.OPEN_CLAIM,
        profiles.HISTORY,
        HEX_TALLY,
        SEATED_ANALYSES,
        # the page's seats, by the keys within the statement: where compiled
        *([profiles.WINDOW_SEATS] if connection.vendor == "postgresql" else []),
    }
    keys = list(profiles.seat_keys(ann.pk)[profiles.GAMES_PER_PAGE : 2 * profiles.GAMES_PER_PAGE])
    assert fetched[profiles.SEAT_KEYS] == keys


def test_the_games_list_reads_no_seats_again_for_a_page_whose_seats_were_fetched(ann, postgresql):
    count = profiles.seat_figures(ann)["seat_count"]
    for page in [None, "2", "3"]:
        fetched = profiles.page_rows(ann, page)
        with CaptureQueriesContext(connection) as queries:
            profiles.games_page(ann, count, page, fetched)

        assert not [query for query in queries if "games_gameseat" in query["sql"]], page
    with CaptureQueriesContext(connection) as queries:  # past the last page: read for it
        profiles.games_page(ann, count, "9", profiles.page_rows(ann, "9"))
    assert any("LIMIT" in query["sql"] for query in queries)


def test_a_claimed_name_asks_for_no_claim_request(ann, postgresql):
    ann.user = get_user_model().objects.create_user("ann-user", password="x")
    ann.save()

    assert profiles.OPEN_CLAIM not in profiles.page_rows(ann, None)


def test_one_trip_gives_each_querys_rows_in_their_own_types_as_each_alone(ann, postgresql):
    values = {"player": ann.pk}
    asked = [
        compiled.compile_once(key, model, build, {"player": profiles.PLAYER_SLOT})
        for key, model, build in [
            (profiles.SEAT_KEYS, GameSeat, profiles.seat_keys),
            (profiles.REGISTRATIONS, Registration, profiles.player_registrations),
            (profiles.OPEN_CLAIM, ClaimRequest, profiles.open_claim),
        ]
    ]
    limited = compiled.tailed(asked[0], " LIMIT %s OFFSET %s", ("limit", "offset"))

    found = compiled.in_one_trip(
        [(limited, {**values, "limit": 3, "offset": 2}), *((query, values) for query in asked)]
    )

    assert found == [
        asked[0].rows(values, " LIMIT %s OFFSET %s", (3, 2)),
        *(query.rows(values) for query in asked),
    ]
    assert isinstance(found[0][0][0], datetime.datetime)  # not a date's text
    assert compiled.in_one_trip([]) == []


def test_a_connection_binding_values_on_the_server_asks_each_query_alone(ann, monkeypatch):
    together = profiles.page_rows(ann, "2")

    class NoClientCursor:  # what no cursor of a server-binding connection is
        pass

    monkeypatch.setattr(compiled.psycopg, "ClientCursor", NoClientCursor)

    with CaptureQueriesContext(connection) as queries:
        assert profiles.page_rows(ann, "2") == together
    assert len(queries) == (9 if connection.vendor == "postgresql" else 10)
    assert shown(profiles.player_profile(ann, "2")) == asked_alone(ann, "2", monkeypatch)
