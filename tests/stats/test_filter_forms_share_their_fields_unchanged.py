"""A statistics filter form shares its fields with the forms of the same game (Django would
deep-copy them for each form: stats.filters.SharedFields); nothing a form does changes them
for the next one, and each game still offers its own choices."""

from django.http import QueryDict
from django.template.loader import render_to_string

from stats.adapters import hex_games
from stats.filters import StatsFilter


def bar(query: str, **kwargs) -> str:
    return render_to_string(
        "stats/_filters.html", {"filters": StatsFilter(QueryDict(query), **kwargs)}
    )


def test_forms_of_one_game_share_its_fields_in_dicts_of_their_own():
    one, two = StatsFilter(QueryDict("game=deep-dive")), StatsFilter(QueryDict("game=deep-dive"))
    assert one.fields["players"] is two.fields["players"]
    assert one.fields is not two.fields
    del one.fields["band"]
    assert "band" in two.fields and "band" in StatsFilter(QueryDict("game=deep-dive")).fields


def test_a_form_with_errors_leaves_the_next_forms_bar_as_it_was():
    before = bar("game=deep-vents&players=3")
    refused = bar("game=deep-vents&players=9&since=2024-13&min_sample=abc&strategy=nobody")
    assert 'class="error"' in refused
    assert bar("game=deep-vents&players=3") == before


def test_each_game_offers_its_own_table_sizes_and_bots_whatever_came_before():
    for _ in range(2):
        vents = StatsFilter(QueryDict("game=deep-vents"))
        dive = StatsFilter(QueryDict("game=deep-dive"))
        assert vents.fields["players"] is not dive.fields["players"]
        assert vents.fields["strategy"].choices != dive.fields["strategy"].choices
        hexes = StatsFilter(QueryDict(""), games=hex_games())
        assert [g for g, _ in hexes.fields["game"].choices] == hex_games()
        assert len(StatsFilter(QueryDict("")).fields["game"].choices) > len(hex_games())
