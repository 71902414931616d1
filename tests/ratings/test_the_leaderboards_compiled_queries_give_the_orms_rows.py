"""The leaderboard's queries are compiled once (common.compiled, issue 25): a page of stored
ratings reads the count, the rows, their order and their trends the ORM reads, and is drawn
byte for byte as the ORM's, with 4 rated players or 154, on any page, for a game type with
ratings or none, and for trends of any set of players, whichever query came before."""

from __future__ import annotations

import pytest

from common import compiled
from players.models import Player
from ratings import leaderboard
from ratings.leaderboard import Filters, leaderboard_page, recent_elo
from ratings.models import Rating
from ratings.views import leaderboard_body
from tests.ratings.test_leaderboard import play_games
from tests.ratings_support import eager_tasks

pytestmark = pytest.mark.django_db

PAGES = [None, "1", "2", "3", "last", "99", "nonsense"]


def through_the_orm(monkeypatch, read, *args):
    """`read(*args)` with every query built and compiled by the ORM, as before."""
    with monkeypatch.context() as patch:
        patch.setattr(leaderboard, "compile_once", lambda *_: None)
        return read(*args)


def drawn(game_type: str, number: str | None, rf) -> tuple:
    page = leaderboard_page(game_type, Filters(), number)
    return (
        page.number,
        page.paginator.count,
        page.paginator.num_pages,
        [(row.position, row.player, row.elo, row.openskill, row.trend) for row in page],
        leaderboard_body(game_type, Filters(), number, rf.get("/")),
    )


def more_players(count: int) -> None:
    """Rated players beside the four who played: ties in Elo (ordered by handle), some
    provisional, names that need escaping."""
    for n in range(count):
        player = Player.objects.create(handle=f"p{n:03}", display_name=f"<Player> {n} & co")
        Rating.objects.create(
            player=player,
            game_type="deep-vents",
            rating=1400 + n // 3,
            games=3 + n % 12,
            wins=n % 5,
        )


def test_every_page_is_the_orms_with_4_or_154_players(postgresql, monkeypatch, rf):
    compiled.COMPILED.clear()
    with eager_tasks():
        play_games()
    for players in (4, 154):
        if players == 154:
            more_players(150)
        for game_type in ("deep-vents", "deep-dive"):  # deep-dive: nobody rated
            for number in PAGES:
                ours = drawn(game_type, number, rf)
                orms = through_the_orm(monkeypatch, drawn, game_type, number, rf)
                assert ours == orms, (players, game_type, number)
                assert repr(ours) == repr(orms)  # the same types: 1400.0 is not 1400
    assert ours[1] == 0 and drawn("deep-vents", "2", rf)[1] == 154
    # (the rater's own compiled queries beside them: services.restored, pending_games)
    assert {key for key, _ in compiled.COMPILED if key.startswith("leaderboard")} == {
        "leaderboard count",
        "leaderboard rows",
        "leaderboard trends",
    }


def test_trends_are_the_orms_for_any_set_of_players(postgresql, monkeypatch):
    with eager_tasks():
        play_games()
    more_players(3)
    rated = list(Rating.objects.filter(game_type="deep-vents").values_list("player_id", flat=True))
    played = [pk for pk in rated if recent_elo("deep-vents", [pk]).get(pk)]
    assert len(played) == 4
    for players in ([], played[:1], played, rated, [*rated, 987_654], [987_654]):
        for game_type in ("deep-vents", "deep-dive"):
            ours = recent_elo(game_type, players)
            orms = through_the_orm(monkeypatch, recent_elo, game_type, players)
            assert ours == orms, (players, game_type)
            assert repr(sorted(ours.items())) == repr(sorted(orms.items()))
    assert sorted(len(trend) for trend in recent_elo("deep-vents", played).values()) == [
        1,
        10,
        10,
        11,
    ]
