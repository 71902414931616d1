"""The players' hex tally has two folds (stats.services.aggregate): one SQL statement on
PostgreSQL (fold_player_hexes_in_postgresql) and one read into Python, SQLite's
(fold_player_hexes_in_python). Under PostgreSQL both run on the same deltas, each in a
savepoint rolled back, and store the same tally over games recorded, retracted (one leaving a
player nothing) and recorded again, as they are and undone before one fold; each fold's
tally is what the page read before it and, at the end, what a rebuild stores. Under SQLite
the fold read into Python alone runs, held to the same."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import transaction

from common.database import postgresql
from games.models import Game
from games.signals import game_counted, game_retracted
from players.models import Player
from stats.models import PlayerHexTally, PlayerHexTallyDelta
from stats.services.aggregate import (
    fold_player_hexes_in_postgresql,
    fold_player_hexes_in_python,
    rebuild_all,
)
from stats.services.hexes import hexes_taken_by
from tests.ratings_support import hours_ago, verified_game

pytestmark = pytest.mark.django_db


def folds() -> dict[str, Callable[[], int]]:
    both = {"python": fold_player_hexes_in_python}
    if postgresql():
        both["postgresql"] = fold_player_hexes_in_postgresql
    return both


def stored_tally() -> dict[str, dict[str, int]]:
    return dict(PlayerHexTally.objects.values_list("player__handle", "taken"))


def read_tally() -> dict[str, dict[str, int]]:
    """Every player's takes as the page reads them: the stored tally and the deltas."""
    read = {player.handle: dict(hexes_taken_by(player.pk)) for player in Player.objects.all()}
    return {handle: taken for handle, taken in read.items() if taken}


def fold_by_each(kept: str) -> dict[str, dict[str, int]]:
    """Each fold on the deltas as they stand, rolled back; then `kept`'s, kept. What they
    stored, the same for both."""
    assert PlayerHexTallyDelta.objects.exists()
    read = read_tally()
    stored = {}
    for name, fold in folds().items():
        with transaction.atomic():
            moved = fold()
            stored[name] = (moved, stored_tally())
            assert not PlayerHexTallyDelta.objects.exists()
            transaction.set_rollback(True)
    folds()[kept]()
    assert stored_tally() == stored[kept][1]
    assert all(result == stored[kept] for result in stored.values()), stored
    assert stored[kept][1] == read
    assert all(times for taken in stored[kept][1].values() for times in taken.values())
    return stored[kept][1]


def retract(game: Game) -> None:
    game_retracted.send(sender=Game, game=game)
    game.counts = False
    game.save(update_fields=["counts"])


def count_again(game: Game) -> None:
    game.counts = True
    game.save(update_fields=["counts"])
    game_counted.send(sender=Game, game=game, group=None)


def test_both_folds_store_the_same_tally_over_record_retraction_and_record_again():
    kept = list(folds())[-1]  # the database's own fold keeps its tally, the other is compared
    games = [
        verified_game(["ann", "bob", "cyd"], seed=31, played_at=hours_ago(5)),
        verified_game(["ann", "bob"], seed=32, played_at=hours_ago(4)),
    ]
    recorded = fold_by_each(kept)
    assert set(recorded) == {"ann", "bob", "cyd"}

    games += [
        verified_game(["bob", "cyd", "dee", "ann"], seed=33, played_at=hours_ago(3)),
        verified_game(["annie", "cyd"], seed=34, played_at=hours_ago(2)),
    ]
    retract(games[0])  # in the same fold as games recorded: the deltas of both signs
    assert "annie" in fold_by_each("python")

    retract(games[3])  # annie's only game: nothing left of her, no row of zeros
    assert "annie" not in fold_by_each(kept)

    count_again(games[3])
    count_again(games[0])
    again = fold_by_each("python")
    assert again["annie"] and again == recorded | again

    retract(games[1])
    count_again(games[1])  # undone before a fold: deltas that cancel out
    assert fold_by_each(kept) == again

    rebuild_all()
    assert stored_tally() == again
