"""A verified group's games and seats are built without Model.__init__'s steps per keyword
(verification.unsaved, issue 25, CPU per verified log): the same instances the models'
own constructors make, stored as the ORM stores them."""

import json

import pytest
from django.db.models.signals import post_init
from django.utils import timezone
from games_support import human_log, text

from games.models import Game, GameLog, GameSeat, Upload
from games.services import verification
from games.services.verification import GAME_FIELDS, SEAT_FIELDS, unsaved

pytestmark = pytest.mark.django_db


def state(instance) -> dict:
    """An instance's fields and what it has cached, as a constructor leaves them."""
    fields = {name: value for name, value in vars(instance).items() if name != "_state"}
    return {**fields, "adding": instance._state.adding, "db": instance._state.db}


def test_a_game_and_a_seat_built_unsaved_equal_the_ones_their_constructors_build():
    moment = timezone.now()
    game_values = (None, 7, "deep-vents", "standard", {"a": 1}, "first", 4, "human", moment)
    game_values += ("normal", True)
    seat_values = (11, 5, moment, 3.0, 2, 1, True, "Nemo", "cautious", {"turn": 1, "bid": 3})

    assert state(unsaved(Game, GAME_FIELDS, game_values)) == state(
        Game(**dict(zip(GAME_FIELDS, game_values, strict=True)))
    )
    assert state(unsaved(GameSeat, SEAT_FIELDS, seat_values)) == state(
        GameSeat(**dict(zip(SEAT_FIELDS, seat_values, strict=True)))
    )


def test_fields_left_out_or_out_of_order_are_refused():
    with pytest.raises(ValueError):
        unsaved(GameSeat, SEAT_FIELDS[1:], (1,) * (len(SEAT_FIELDS) - 1))
    with pytest.raises(ValueError):
        unsaved(GameSeat, SEAT_FIELDS[::-1], (1,) * len(SEAT_FIELDS))


def test_a_model_something_listens_to_is_built_by_its_constructor():
    seen = []

    def listen(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(listen, sender=GameSeat)
    try:
        seat = unsaved(
            GameSeat, SEAT_FIELDS, (1, None, timezone.now(), 1.0, 0, 1, True, "A", "", None)
        )
    finally:
        post_init.disconnect(listen, sender=GameSeat)
    assert seen == [seat]


def test_a_verified_groups_games_and_seats_are_stored_as_the_orm_reads_them_back():
    upload = Upload.objects.create()
    for seed in (3, 4, 5):
        raw = text(human_log(seed=seed))
        GameLog.objects.create(
            upload=upload, raw=raw, sha256=GameLog.digest(raw), game_type=json.loads(raw)["game"]
        )
    built: list[Game] = []
    store_games = verification.store_games

    def keep(*args, **kwargs):
        games = store_games(*args, **kwargs)
        built.extend(games)
        return games

    verification.store_games = keep
    try:
        verification.verify_logs(list(GameLog.objects.values_list("pk", flat=True)))
    finally:
        verification.store_games = store_games

    assert len(built) == 3
    for game in built:
        read = Game.objects.get(pk=game.pk)
        assert [getattr(game, name) for name in GAME_FIELDS] == [
            getattr(read, name) for name in GAME_FIELDS
        ]
        assert game.log.game is game and game.log_id == game.log.pk
        seats = list(game.seats.all())
        assert all(GameSeat.game.is_cached(seat) and seat.game is game for seat in seats)
        assert all(not seat._state.adding for seat in [game, *seats])
        assert [[getattr(seat, name) for name in SEAT_FIELDS] for seat in seats] == [
            [getattr(seat, name) for name in SEAT_FIELDS]
            for seat in GameSeat.objects.filter(game=game).order_by("seat")
        ]
