"""One title lookup for the whole site (engines.registry.title_of): the pages' game_title
filter, the analysis figures, notices and the tournaments' refusals all read a game's id
as its title, and an id no game has as itself (or as the caller asks)."""

from engines.registry import GAMES, get_game, title_of


def test_every_game_reads_as_its_engine_titles_it():
    assert {game_id: title_of(game_id) for game_id in GAMES} == {
        game_id: get_game(game_id).title for game_id in GAMES
    }
    assert title_of("deep-vents") == "Deep Vents"


def test_an_id_no_game_has_reads_as_itself_or_as_the_caller_asks():
    assert title_of("chess") == "chess"
    assert title_of("chess", unknown="game") == "game"
    assert title_of(["deep-vents"], unknown=repr(["deep-vents"])) == "['deep-vents']"
    assert title_of(None) == "None"
