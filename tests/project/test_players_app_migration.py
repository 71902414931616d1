"""Moving Player from tournaments to the players app keeps every player, seat, entry and
rating: a database filled before the move is migrated past it and checked row by row."""

import datetime

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE_THE_MOVE = [
    ("tournaments", "0002_tournaments"),
    ("games", "0003_compressed_facts"),
    ("ratings", "0002_rating_ledger"),
    ("players", None),
]
AFTER_THE_MOVE = [
    ("tournaments", "0004_player_moved_to_players_app"),
    ("games", "0004_gameseat_player_from_players_app"),
    ("ratings", "0003_player_from_players_app"),
    ("players", "0001_initial"),
]
PLAYED = datetime.datetime(2026, 10, 1, 20, 0, tzinfo=datetime.UTC)


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


@pytest.fixture(autouse=True)
def back_to_the_latest_schema():
    """Whatever a test migrated to, the next test finds every migration applied."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def fill_before_the_move(apps):
    """Players with an account, a game, a tournament table and ratings, as they were."""
    user = apps.get_model("auth", "User").objects.create(username="marina-user")
    player_model = apps.get_model("tournaments", "Player")
    marina = player_model.objects.create(handle="marina", display_name="Marina", user=user)
    kelp = player_model.objects.create(handle="kelp", display_name="Kelpie Drift")
    upload = apps.get_model("games", "Upload").objects.create()
    log = apps.get_model("games", "GameLog").objects.create(
        upload=upload, raw="{}", sha256="a" * 64, game_type="deep-vents", status="verified"
    )
    game = apps.get_model("games", "Game").objects.create(
        log=log,
        game_type="deep-vents",
        ruleset="starting-bid",
        edition="1",
        player_count=2,
        source="tournament",
        played_at=PLAYED,
    )
    seat = apps.get_model("games", "GameSeat")
    for number, player in enumerate([marina, kelp]):
        seat.objects.create(
            game=game,
            seat=number,
            player=player,
            name=player.display_name,
            score=10 - number,
            rank=number + 1,
            winner=number == 0,
        )
    tournament = apps.get_model("tournaments", "Tournament").objects.create(
        name="Open", slug="open", starts_on=PLAYED.date()
    )
    round_ = apps.get_model("tournaments", "Round").objects.create(tournament=tournament, number=1)
    table = apps.get_model("tournaments", "Table").objects.create(round=round_, number=1, log=log)
    for number, player in enumerate([marina, kelp]):
        apps.get_model("tournaments", "Registration").objects.create(
            tournament=tournament, player=player, draw=number / 10
        )
        apps.get_model("tournaments", "TableSeat").objects.create(
            table=table, seat=number, player=player, opening_bidder=number == 0
        )
        apps.get_model("ratings", "Rating").objects.create(
            player=player, game_type="deep-vents", rating=1500 + 16 * (1 - 2 * number), games=1
        )
        apps.get_model("ratings", "RatingChange").objects.create(
            game=game,
            player=player,
            game_type="deep-vents",
            played_at=PLAYED,
            source="tournament",
            rank=number + 1,
            won=number == 0,
            elo_before=1500,
            elo_after=1500 + 16 * (1 - 2 * number),
            mu_before=25,
            mu_after=25,
            sigma_before=8,
            sigma_after=8,
        )
    return {"marina": marina.pk, "kelp": kelp.pk, "user": user.pk}


@pytest.mark.django_db(transaction=True)
def test_players_seats_entries_and_ratings_survive_the_move_to_the_players_app():
    apps = migrate(BEFORE_THE_MOVE)
    ids = fill_before_the_move(apps)

    apps = migrate(AFTER_THE_MOVE)

    player_model = apps.get_model("players", "Player")
    assert dict(player_model.objects.values_list("handle", "pk")) == {
        "marina": ids["marina"],
        "kelp": ids["kelp"],
    }
    assert player_model.objects.get(handle="marina").user_id == ids["user"]
    seats = apps.get_model("games", "GameSeat").objects.order_by("seat")
    assert [(s.player.handle, s.rank) for s in seats] == [("marina", 1), ("kelp", 2)]
    table_seats = apps.get_model("tournaments", "TableSeat").objects.order_by("seat")
    assert [s.player.handle for s in table_seats] == ["marina", "kelp"]
    entries = apps.get_model("tournaments", "Registration").objects.order_by("draw")
    assert [e.player.handle for e in entries] == ["marina", "kelp"]
    ratings = apps.get_model("ratings", "Rating").objects.order_by("-rating")
    assert [(r.player.handle, r.rating) for r in ratings] == [("marina", 1516), ("kelp", 1484)]
    changes = apps.get_model("ratings", "RatingChange").objects.order_by("rank")
    assert [c.player_id for c in changes] == [ids["marina"], ids["kelp"]]


@pytest.mark.django_db(transaction=True)
def test_a_player_created_after_the_move_gets_a_fresh_id_and_its_content_type_moved():
    apps = migrate(BEFORE_THE_MOVE)
    old = apps.get_model("tournaments", "Player").objects.create(handle="coral", display_name="C")
    ContentType.objects.filter(app_label="players").delete()
    ContentType.objects.get_or_create(app_label="tournaments", model="player")

    apps = migrate(AFTER_THE_MOVE)

    new = apps.get_model("players", "Player").objects.create(handle="yeti", display_name="Y")
    assert new.pk > old.pk
    assert ContentType.objects.filter(app_label="players", model="player").exists()
    assert not ContentType.objects.filter(app_label="tournaments", model="player").exists()


BEFORE_CANONICAL_NAMES = [
    ("players", "0001_initial"),
    ("games", "0004_gameseat_player_from_players_app"),
]


@pytest.mark.django_db(transaction=True)
def test_existing_players_are_still_found_by_the_names_their_games_call_them():
    apps = migrate(BEFORE_CANONICAL_NAMES)
    player_model = apps.get_model("players", "Player")
    marina = player_model.objects.create(handle="marina", display_name="Marina Abyss")
    player_model.objects.create(handle="ann-angler", display_name="Ann Angler")
    player_model.objects.create(handle="kelp", display_name="Kelp")
    upload = apps.get_model("games", "Upload").objects.create()
    for number in range(2):
        log = apps.get_model("games", "GameLog").objects.create(
            upload=upload, raw="{}", sha256=f"{number}" * 64, game_type="deep-vents"
        )
        game = apps.get_model("games", "Game").objects.create(
            log=log,
            game_type="deep-vents",
            ruleset="starting-bid",
            edition="1",
            player_count=1,
            source="human",
            played_at=PLAYED,
        )
        apps.get_model("games", "GameSeat").objects.create(
            game=game, seat=0, player=marina, name="marina", score=1, rank=1, winner=True
        )

    migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    from players.models import Player
    from players.services import players_for

    assert dict(Player.objects.values_list("handle", "canonical_name")) == {
        "marina": "marina",  # what its games call it, not its display name
        "ann-angler": "ann angler",  # its display name, whose slug is its handle
        "kelp": "kelp",
    }
    found = players_for(["MARINA", "Ann Angler", " kelp"])
    assert [p.handle for p in found.values()] == ["marina", "ann-angler", "kelp"]
