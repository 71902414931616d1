"""A player's rating chart: the page pictures a long history by its lowest and highest point
in each slice of its dates (pages.services.profiles.picture_lines) and writes no point a game;
the figure, a point a rated game, is served by players:ratings for the reader who explores
it (issue 25). Checked here against values worked out from the rows themselves."""

import datetime
import math
import random

import pytest

from common.chart_preview import preview
from pages.services import profiles
from players.models import Player
from ratings import history as rating_history
from ratings.models import Rating, RatingChange
from ratings.skill import display_rating

START = datetime.datetime(2025, 1, 1, 12, tzinfo=datetime.UTC)


def history(player: Player, game_type: str, count: int, seed: int, first_game: int) -> None:
    """`count` rated games of `game_type`, some hours apart, with repeated values and some
    games at the same moment, so ties (earliest of equals) are met."""
    rng = random.Random(seed)
    moment = START + datetime.timedelta(hours=seed)
    changes = []
    for i in range(count):
        if rng.random() > 0.1:  # one in ten: at the same moment as the game before
            moment += datetime.timedelta(hours=rng.randint(1, 30), microseconds=rng.randint(0, 9))
        changes.append(
            RatingChange(
                game_id=first_game + i,
                player=player,
                played_at=moment,
                elo_before=1500,
                elo_after=1500 + rng.choice([-40, -12.25, 0, 12.25, 40]) + rng.randint(-3, 3),
                mu_after=25 + rng.randint(-20, 20) / 4,
                sigma_after=rng.choice([8.0, 6.5, 5.0]),
                game_type=game_type,
                won=False,
            )
        )
    RatingChange.objects.bulk_create(changes)
    # what the chart reads, as the rater keeps them: a rating, the packed history
    Rating.objects.get_or_create(player=player, game_type=game_type)
    rating_history.rebuild()


@pytest.fixture
def dan(db) -> Player:
    dan = Player.objects.create(handle="dan", display_name="Dan", canonical_name="dan")
    history(dan, "deep-vents", 90, seed=1, first_game=1)
    history(dan, "liars-dice", 12, seed=2, first_game=1000)
    return dan


def rows_of_in_order(player: Player) -> list[RatingChange]:
    """The player's Liar's Dice games (12: drawn whole), in the order played."""
    rows = RatingChange.objects.filter(player=player, game_type="liars-dice")
    return list(rows.order_by("played_at", "game_id"))


def rows_of(player: Player, game_type: str) -> list[RatingChange]:
    return list(RatingChange.objects.filter(player=player, game_type=game_type))


def kept_points(rows, value, point, columns):
    """What a picture keeps, worked out from the rows: in each of `columns` equal slices of
    the dates (first to last game of the whole chart) the lowest and highest game by `value`
    (the earliest of equals), and the line's first and last game; each as `point`, once, in
    the order played (games at one moment in the order of their points)."""
    everyone = RatingChange.objects.filter(player=rows[0].player)
    first = min(change.played_at for change in everyone)
    last = max(change.played_at for change in everyone)
    span = last.timestamp() - first.timestamp()
    rows = sorted(rows, key=lambda change: (change.played_at, change.game_id))
    slices: dict[int, list[RatingChange]] = {}
    for change in rows:
        at = (change.played_at.timestamp() - first.timestamp()) / span * columns
        slices.setdefault(min(math.floor(at), columns - 1), []).append(change)
    kept = {point(rows[0]), point(rows[-1])}
    for in_slice in slices.values():
        kept.add(point(min(in_slice, key=lambda change: (value(change), change.played_at))))
        kept.add(point(min(in_slice, key=lambda change: (-value(change), change.played_at))))
    return sorted(kept)


def ordinal(change: RatingChange) -> float:
    return change.mu_after - 3 * change.sigma_after


@pytest.mark.django_db
def test_a_long_line_keeps_the_lowest_and_highest_game_of_each_slice_and_its_ends(dan, monkeypatch):
    monkeypatch.setattr(profiles, "PREVIEW_COLUMNS", 7)
    lines, first, last = profiles.picture_lines(dan)

    line = lines["deep-vents"]
    moments = [change.played_at for change in RatingChange.objects.all()]
    assert (first, last) == (min(moments), max(moments))
    assert lines["liars-dice"]["elo"] == [round(c.elo_after, 1) for c in rows_of_in_order(dan)]

    rows = rows_of(dan, "deep-vents")
    elo = kept_points(rows, lambda c: c.elo_after, lambda c: (seconds(c), c.elo_after), 7)
    skill = kept_points(rows, ordinal, lambda c: (seconds(c), c.mu_after, c.sigma_after), 7)
    assert line["elo_x"] == [at for at, _ in elo]
    assert line["elo"] == [round(value, 1) for _, value in elo]
    assert line["skill_x"] == [at for at, _, _ in skill]
    assert line["skill"] == [display_rating(mu - 3 * sigma) for _, mu, sigma in skill]
    assert len(line["elo"]) <= 2 * 7 + 2 < len(rows)


def seconds(change: RatingChange) -> float:
    return change.played_at.timestamp()


def reference_figure(player: Player, dates=lambda moments: [m.timestamp() * 1000 for m in moments]):
    """The figure as the page wrote it before issue 25 (a point a rated game, types in the
    order of their first game), each date as `dates` writes them: milliseconds since 1970
    for the figure served, their text (as before) for its picture."""
    changes = sorted(
        RatingChange.objects.filter(player=player), key=lambda c: (c.played_at, c.game_id)
    )
    by_type: dict[str, list[RatingChange]] = {}
    for change in changes:
        by_type.setdefault(change.game_type, []).append(change)
    lines = {
        game_type: {
            "elo_x": dates([c.played_at for c in rows]),
            "elo": [round(c.elo_after, 1) for c in rows],
            "skill_x": dates([c.played_at for c in rows]),
            "skill": [display_rating(ordinal(c)) for c in rows],
        }
        for game_type, rows in by_type.items()
    }
    return profiles.rating_figure(lines, changes[0].played_at, changes[-1].played_at)


@pytest.mark.django_db
def test_the_figure_explored_is_a_point_a_rated_game_as_the_page_wrote_it(client, dan):
    figure = client.get("/players/dan/ratings.json").json()

    expected = reference_figure(dan)
    assert figure["layout"] == expected["layout"]
    assert figure["data"] == expected["data"]
    assert [len(trace["x"]) for trace in figure["data"]] == [90, 90, 12, 12]
    assert figure["data"][0]["hovertemplate"].startswith("%{x|%Y-%m-%d %H:%M}: Elo")


@pytest.mark.django_db
def test_the_page_pictures_a_long_history_without_writing_its_figure(client, dan, monkeypatch):
    monkeypatch.setattr(profiles, "PREVIEW_COLUMNS", 7)  # deep-vents: 90 games > 2 x 7

    chart = client.get("/players/dan/").context["rating_chart"]

    assert 'data-figure-src="/players/dan/ratings.json"' in chart
    assert "data-plotly-figure" not in chart
    polylines = chart.count("<polyline")
    assert polylines == 4  # Elo and OpenSkill of two game types
    longest = max(
        len(p.split('points="')[1].split('"')[0].split()) for p in chart.split("<polyline")[1:]
    )
    assert longest <= 2 * 7 + 2


@pytest.mark.django_db
def test_a_short_history_is_pictured_as_its_whole_figure_was(client, dan):
    # Both types have at most 2 x PREVIEW_COLUMNS games: every point drawn, as before.
    chart = client.get("/players/dan/").context["rating_chart"]

    picture = preview(reference_figure(dan, lambda moments: [m.isoformat() for m in moments]))
    assert picture is not None and picture in chart


@pytest.mark.django_db
def test_an_unknown_player_or_one_without_rated_games_has_no_figure_to_explore(client, db):
    Player.objects.create(handle="eve", display_name="Eve", canonical_name="eve")

    unknown = client.get("/players/nobody/ratings.json")
    unrated = client.get("/players/eve/ratings.json")

    assert unknown.status_code == 404 and "no player 'nobody'" in unknown.json()["error"]
    assert unrated.status_code == 404 and "no rated games" in unrated.json()["error"]
    assert client.get("/players/eve/").context["rating_chart"] is None
