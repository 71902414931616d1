"""The players' hex tally (stats.models.PlayerHexTally): how often each named player took each
hex type, kept by the fold from the seat lines' players and the hex lines, equal to the takes
counted from the games' facts, to a rebuild, and following a players' merge (issue 25)."""

from collections import Counter

import pytest

from games.models import Game, GameSeat
from games.signals import game_retracted
from players.merge import merge_players
from players.models import Player
from stats.models import PlayerHexTally, PlayerHexTallyDelta
from stats.services import seat_packing
from stats.services.aggregate import fold_deltas, rebuild_all
from stats.services.hexes import hexes_taken_by
from tests.ratings_support import hours_ago, verified_game
from tests.stats_support import seat_lines_of

pytestmark = pytest.mark.django_db


def taken_in_facts(player: Player) -> Counter:
    """The player's takes counted from their counted games' "take" facts, seat by seat."""
    taken: Counter = Counter()
    for seat in GameSeat.objects.filter(player=player, game__counts=True).select_related("game"):
        for fact in seat.game.facts:
            if fact["type"] == "take" and fact["seat"] == seat.seat:
                taken[fact["hex"]] += 1
    return taken


def tally() -> dict:
    """Every player's takes per hex type, as the page reads them (folded or not)."""
    return {
        player.handle: hexes_taken_by(player.pk)
        for player in Player.objects.order_by("handle")
        if hexes_taken_by(player.pk)
    }


@pytest.fixture
def games(db) -> list[Game]:
    return [
        verified_game(["ann", "bob", "cyd"], seed=31, played_at=hours_ago(5)),
        verified_game(["ann", "bob"], seed=32, played_at=hours_ago(4)),
        verified_game(["bob", "cyd", "dee", "ann"], seed=33, played_at=hours_ago(3)),
        verified_game(["annie", "cyd"], seed=34, played_at=hours_ago(2)),
    ]


def test_each_players_tally_is_what_their_take_facts_count(games):
    for player in Player.objects.all():
        assert hexes_taken_by(player.pk) == taken_in_facts(player)
    assert sum(hexes_taken_by(Player.objects.get(handle="ann").pk).values()) > 0


def test_the_seat_lines_carry_each_seats_player(games):
    for game in games:
        players = dict(game.seats.values_list("seat", "player_id"))
        assert {line.seat: line.player for line in seat_lines_of(game)} == players


def test_the_folded_tally_equals_a_rebuild_from_the_lines(games):
    live = tally()
    assert PlayerHexTallyDelta.objects.exists()  # not folded yet: the page read the deltas
    fold_deltas()
    assert not PlayerHexTallyDelta.objects.exists()
    assert tally() == live
    rebuild_all()
    assert tally() == live
    rebuild_all(from_facts=True)
    assert tally() == live


def test_a_retracted_game_leaves_the_tally(games):
    game_retracted.send(sender=Game, game=games[2])
    games[2].counts = False
    games[2].save(update_fields=["counts"])
    for player in Player.objects.all():
        assert hexes_taken_by(player.pk) == taken_in_facts(player)
    retracted = tally()
    rebuild_all()
    assert tally() == retracted


def stored_tally() -> dict:
    return dict(PlayerHexTally.objects.values_list("player__handle", "taken"))


def test_a_folded_retraction_stores_what_a_rebuild_stores(games):
    fold_deltas()
    annies_only_game = games[3]
    game_retracted.send(sender=Game, game=annies_only_game)
    annies_only_game.counts = False
    annies_only_game.save(update_fields=["counts"])
    fold_deltas()
    folded = stored_tally()
    assert "annie" not in folded  # nothing left: no row, not a row of zeros
    assert all(times for taken in folded.values() for times in taken.values())
    rebuild_all()
    assert stored_tally() == folded


def test_a_merge_moves_the_duplicates_takes_and_seat_lines_to_the_player_kept(games):
    ann, annie = Player.objects.get(handle="ann"), Player.objects.get(handle="annie")
    fold_deltas()  # the duplicate's takes so far folded, the next game's still deltas
    verified_game(["annie", "bob"], seed=35, played_at=hours_ago(1))
    before = {handle: dict(counts) for handle, counts in tally().items()}
    expected = taken_in_facts(ann) + taken_in_facts(annie)
    assert hexes_taken_by(annie.pk) == taken_in_facts(annie)

    merge_players(ann, [annie])

    assert hexes_taken_by(ann.pk) == expected == taken_in_facts(ann)
    assert {h: dict(c) for h, c in tally().items() if h != "ann"} == {
        h: c for h, c in before.items() if h not in ("ann", "annie")
    }
    assert not PlayerHexTally.objects.filter(player_id=annie.pk).exists()
    assert not PlayerHexTallyDelta.objects.filter(player=annie.pk).exists()
    for game in Game.objects.filter(seats__player=ann):
        assert annie.pk not in {line.player for line in seat_lines_of(game)}
    merged = tally()
    fold_deltas()
    assert tally() == merged
    rebuild_all()
    assert tally() == merged
    assert {row.player.handle: row.taken for row in PlayerHexTally.objects.all()} == {
        handle: dict(counts) for handle, counts in merged.items()
    }


def test_a_merge_reads_only_the_seat_lines_of_the_duplicates_games(games, monkeypatch):
    ann, annie = Player.objects.get(handle="ann"), Player.objects.get(handle="annie")
    annies = sorted(Game.objects.filter(seats__player=annie).values_list("pk", flat=True))
    unpacked = []
    unpack = seat_packing.unpack

    def counted(game_id, month, packed):
        unpacked.append(game_id)
        return unpack(game_id, month, packed)

    monkeypatch.setattr(seat_packing, "unpack", counted)

    merge_players(ann, [annie])

    assert len(annies) == 1 and Game.objects.filter(seats__player=ann).count() == 4
    assert sorted(unpacked) == annies  # never ann's own three games
