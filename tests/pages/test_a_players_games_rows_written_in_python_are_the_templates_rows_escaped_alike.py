"""A player's games list rows are written in Python (pages.services.profiles.games_rows; issue
25: the template's loop over 50 rows was half the page's CPU at 1M games): the same bytes the
template's loop wrote, every value escaped as it escaped them, for values holding <, &, and
quotes (in the player's name and a game's source and type), each confirmation state, a
large and a missing bid and an empty list."""

import datetime

import pytest
from django.template import Context, Template
from django.utils import timezone

from confirmations.models import Review
from games.models import Game, GameSeat
from players.models import Player
from tests.ratings_support import hours_ago, verified_game

pytestmark = pytest.mark.django_db

HOSTILE = "<b>&amp;\"quoted\" 'single'</b>"
SHORT = "<i>&\"'</i>"  # within a game's source and type columns

# The loop as templates/pages/player.html had it before its rows were written in Python.
AS_THE_TEMPLATE_WROTE_THEM = Template(
    '{% load seat_summaries %}<tbody>{% for s in seats %}\n    <tr data-confirmation="'
    '{{ s.confirmation }}"><td><a href="{{ s.url }}">{{ s.played }}</a></td><td>{{ s.title }}'
    '</td>\n      <td>{{ s.source }}{% if s.confirmation != "counts" %}{% include '
    '"games/_confirmation_mark.html" with state=s.confirmation %}{% endif %}</td><td>'
    "{{ s.place }}</td><td>{{ s.score_shown }}</td><td>"
    '{{ s.summary|summary_value:"bid"|default_if_none:"\N{EN DASH}" }}</td></tr>\n  {% empty %}<tr>'
    '<td colspan="6">No verified games yet.</td></tr>{% endfor %}</tbody>'
)


def page_rows(client, handle: str) -> tuple[str, str]:
    """(the page's games table body, the old loop's rendering of the page's seats)."""
    response = client.get(f"/players/{handle}/")
    assert response.status_code == 200
    page = response.content.decode()
    start = page.index("<tbody>", page.index("<th>Played</th>"))
    written = page[start : page.index("</tbody>", start) + len("</tbody>")]
    expected = AS_THE_TEMPLATE_WROTE_THEM.render(Context({"seats": response.context["seats"]}))
    return written, expected


def test_the_rows_are_the_templates_bytes_with_hostile_text_and_every_state(client):
    games = [
        verified_game(["ann", "bob"], seed=50 + i, played_at=hours_ago(6 - i)) for i in range(6)
    ]
    Player.objects.filter(handle="ann").update(display_name=HOSTILE)
    ann = Player.objects.get(handle="ann")
    seats = list(GameSeat.objects.filter(player=ann).order_by("game__played_at"))
    # Text where the list shows a game's source and type; a large bid, and a bid missing.
    Game.objects.filter(pk=games[0].pk).update(source=SHORT)
    Game.objects.filter(pk=games[1].pk).update(game_type=SHORT)
    GameSeat.objects.filter(pk=seats[2].pk).update(summary={**seats[2].summary, "bid": 12345})
    GameSeat.objects.filter(pk=seats[3].pk).update(summary={"turn": 1})
    # Games that do not count: pending, disputed, rejected, and one with no review at all.
    now = timezone.now()
    for game, status in zip(games[2:5], ["pending", "disputed", "rejected"], strict=True):
        Review.objects.create(
            log_id=game.log_id,
            status=status,
            opened_at=now,
            deadline=now + datetime.timedelta(days=3),
        )
    Game.objects.filter(pk__in=[game.pk for game in games[2:6]]).update(counts=False)

    written, expected = page_rows(client, "ann")

    assert written == expected
    assert SHORT not in written and "&lt;i&gt;&amp;&quot;&#x27;&lt;/i&gt;" in written
    page = client.get("/players/ann/").content.decode()
    assert HOSTILE not in page and "<h1>&lt;b&gt;&amp;amp;&quot;quoted&quot; &#x27;" in page
    for state in ["counts", "pending", "disputed", "rejected", "None"]:
        assert f'data-confirmation="{state}"' in written
    assert "<td>\N{EN DASH}</td>" in written and "<td>12345</td>" in written


def test_an_empty_list_is_the_templates_empty_row(client):
    Player.objects.create(handle="eve", display_name="Eve")

    written, expected = page_rows(client, "eve")

    assert written == expected and "No verified games yet." in written
