"""The games page reads its games' seats by one query compiled once (games.list_rows,
common.compiled: building and compiling it cost more than running it, issue 25): each page
gets its own games' seats, in seat order, as the ORM's query gives them, whichever page
compiled it first."""

import pytest

from common.compiled import COMPILED
from games.list_rows import seat_rows, seats_shown
from tests.ratings_support import hours_ago, verified_game

pytestmark = pytest.mark.django_db


def played_games() -> list[int]:
    return [
        verified_game(["ann", "bob", "cy"], seed=seed, played_at=hours_ago(seed)).pk
        for seed in range(1, 5)
    ]


def test_the_seats_query_is_compiled_once_on_postgresql(postgresql):
    seats_shown(played_games())

    assert any(key == "games list seats" for key, _ in COMPILED)


def test_each_set_of_games_gets_its_own_seats_as_the_orm_reads_them():
    games = played_games()
    first, second = games[:2], games[2:]

    shown_first, shown_second = seats_shown(first), seats_shown(second)

    assert set(shown_first) == set(first) and set(shown_second) == set(second)
    assert seats_shown(first + second) == {**shown_first, **shown_second}
    for game_id in first + second:
        names = [name for g, name, *_ in seat_rows([game_id]) if g == game_id]
        assert len(names) == 3
        written = shown_first.get(game_id) or shown_second[game_id]
        assert [written.index(f">{name}<") for name in names] == sorted(
            written.index(f">{name}<") for name in names
        )
    assert list(seat_rows(first)) == sorted(seat_rows(first), key=lambda row: row[0])
