"""Pages lead to each other: a tournament game and its table link both ways, seat names lead
to player pages, and the public standings keep the internal tiebreak draw to themselves."""

import pytest
from demo_support import load_tournament_demo

from tournaments import demo
from tournaments.models import Table, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db) -> Table:
    load_tournament_demo()
    return Table.objects.filter(round__tournament__slug=demo.DEMO_SLUG, log__isnull=False).first()


def test_a_tournament_game_links_to_its_table_and_the_table_back_to_the_game(client, table):
    game_page = client.get(table.log.get_absolute_url()).content.decode()
    table_page = client.get(table.get_absolute_url()).content.decode()

    assert f'href="{table.get_absolute_url()}"' in game_page
    assert f'href="{table.round.tournament.get_absolute_url()}"' in game_page
    assert f'href="{table.log.get_absolute_url()}"' in table_page


def test_seat_names_on_a_game_page_link_to_the_players(client, table):
    page = client.get(table.log.get_absolute_url()).content.decode()

    for seat in table.log.game.seats.select_related("player"):
        assert f'<a href="{seat.player.get_absolute_url()}">{seat.name}</a>' in page


def test_the_public_standings_do_not_show_the_tiebreak_draw_number(client, table):
    tournament = Tournament.objects.get(slug=demo.DEMO_SLUG)
    response = client.get(tournament.get_absolute_url())
    page = response.content.decode()

    assert "<th>Draw</th>" not in page
    for row in response.context["standings"]:
        assert f"{row.draw:.4f}" not in page
