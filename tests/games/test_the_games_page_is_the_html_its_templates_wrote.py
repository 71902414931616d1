"""The games page's rows and filter bar are written in Python (games.list_rows, quick widgets
on GameFilter; issue 25: through templates they were half the page's CPU at 1M games): the
same bytes the template's loop and Django's widgets wrote, for text holding <, &, and quotes
(a player's name, a game's source and type), every confirmation state, time zones, an empty
list and a filter bar with values and errors."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.template import Context, Template
from django.utils import timezone
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

from common.widgets import QuickNumberInput, QuickSelect, QuickTextInput
from confirmations.models import Review
from games.filters import GameFilter
from games.list_rows import filter_fields
from games.models import Game, GameSeat
from games.pagination import shown_score
from players.models import Player
from tests.ratings_support import hours_ago, verified_game
from tests.widgets_support import with_djangos_widgets

pytestmark = pytest.mark.django_db

HOSTILE = "<b>&amp;\"quoted\" 'single'</b>"
SHORT = "<i>&\"'</i>"  # within a game's source and type columns

# The loop as templates/games/game_list.html had it before its rows were written in Python.
AS_THE_TEMPLATE_WROTE_THEM = Template(
    "{% load names %}<tbody>\n  {% for game in games %}\n"
    '    <tr data-confirmation="{{ game.confirmation }}"><td><a href="'
    '{{ game.get_absolute_url }}">{{ game.game_type|game_title }}</a>{% if game.confirmation'
    ' != "counts" %}{% include "games/_confirmation_mark.html" with state=game.confirmation'
    ' %}{% endif %}</td>\n      <td>{{ game.played_at|date:"Y-m-d H:i" }}</td><td>'
    "{{ game.get_source_display }}</td>\n      <td>{{ game.seats_shown }}</td></tr>\n"
    '  {% empty %}<tr><td colspan="4">No games match.</td></tr>{% endfor %}\n  </tbody>'
)


def seats_as_they_were_shown(game: Game) -> str:
    """The seats as the list wrote them before: Django's format_html a seat."""
    seats = []
    for seat in GameSeat.objects.filter(game=game).order_by("seat").select_related("player"):
        name = (
            format_html('<a href="/players/{}/">{}</a>', seat.player.handle, seat.name)
            if seat.player is not None
            else conditional_escape(seat.name)
        )
        seats.append(format_html("{} ({}, {})", name, shown_score(seat.score), seat.rank))
    return mark_safe("; ".join(seats))


def page_rows(client, query: str = "") -> tuple[str, str]:
    """(the page's games table body, the old loop's rendering of the page's games)."""
    response = client.get(f"/games/{query}")
    assert response.status_code == 200
    page = response.content.decode()
    start = page.index("<tbody>")
    written = page[start : page.index("</tbody>", start) + len("</tbody>")]
    games = list(response.context["page"]["games"])
    for game in games:
        game.seats_shown = seats_as_they_were_shown(game)
    return written, AS_THE_TEMPLATE_WROTE_THEM.render(Context({"games": games}))


def test_the_rows_are_the_templates_bytes_with_hostile_text_and_every_state(client):
    games = [
        verified_game(["ann", "bob"], seed=70 + i, played_at=hours_ago(6 - i)) for i in range(6)
    ]
    Player.objects.filter(handle="ann").update(display_name=HOSTILE)
    GameSeat.objects.filter(game=games[5], seat=1).update(name=HOSTILE, player=None)
    Game.objects.filter(pk=games[0].pk).update(source=SHORT)
    Game.objects.filter(pk=games[1].pk).update(game_type=SHORT)
    now = timezone.now()
    for game, status in zip(games[2:5], ["pending", "disputed", "rejected"], strict=True):
        Review.objects.create(
            log_id=game.log_id,
            status=status,
            opened_at=now,
            deadline=now + datetime.timedelta(days=3),
        )
    Game.objects.filter(pk__in=[game.pk for game in games[2:6]]).update(counts=False)
    written, expected = page_rows(client)

    assert written == expected
    assert written.count("<tr data-confirmation") == 6
    assert SHORT not in written and "&lt;i&gt;&amp;&quot;&#x27;&lt;/i&gt;" in written
    assert HOSTILE not in written and "&lt;b&gt;&amp;amp;&quot;quoted&quot;" in written
    for state in ["counts", "pending", "disputed", "rejected"]:
        assert f'data-confirmation="{state}"' in written
    assert '<a href="/players/bob/">' in written


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Chatham", "America/St_Johns"])
def test_the_times_are_the_date_filters_in_the_current_time_zone(client, zone):
    verified_game(["ann", "bob"], seed=90, played_at=hours_ago(30.25))
    with timezone.override(zone):
        written, expected = page_rows(client)
    assert written == expected


def test_an_empty_list_is_the_templates_empty_row(client):
    written, expected = page_rows(client, "?player=nobody")

    assert written == expected and "No games match." in written


BAR = Template(
    "{% for field in form %}{% if field.name != 'date' %}<div>{{ field.label_tag }} {{ field }}"
    '{% if field.errors %}<small class="error">{{ field.errors|join:" " }}</small>{% endif %}'
    "</div>{% endif %}{% endfor %}"
)


@pytest.mark.parametrize(
    "query",
    [
        "",
        "game=deep-vents&player=ann&tournament=3&source=human&confirmation=pending",
        "game=%22%3E%3Cb%3E&player=%22%3E%26&tournament=0.5&source=x&confirmation=y",
        "tournament=99999999999999999999&player=a%20b",
    ],
)
def test_the_filter_bar_is_the_html_djangos_widgets_write(query):
    quick_form = GameFilter(QueryDict(query)).form
    stock_form = with_djangos_widgets(GameFilter(QueryDict(query)).form)
    quick_form.is_valid(), stock_form.is_valid()

    quick = BAR.render(Context({"form": quick_form}))
    stock = BAR.render(Context({"form": stock_form}))

    assert quick == stock
    assert quick.count("<select") == 3 and quick.count("<input") == 2
    assert {type(field.widget) for field in quick_form.fields.values() if field.widget} >= {
        QuickSelect,
        QuickTextInput,
        QuickNumberInput,
    }


# The loop as templates/games/game_list.html had it before games.list_rows.filter_fields.
PAGE_LOOP = Template(
    '{% for field in form %}{% if field.name != "date" %}\n'
    '    <div>{{ field.label_tag }} {{ field }}{% if field.errors %}<small class="error">'
    '{{ field.errors|join:" " }}</small>{% endif %}</div>\n'
    "    {% endif %}{% endfor %}"
)


@pytest.mark.parametrize(
    "query",
    [
        "",
        "game=deep-vents&player=ann&tournament=3&source=human&confirmation=pending",
        "game=%22%3E%3Cb%3E&player=%22%3E%26&tournament=0.5&source=x&confirmation=y",
        "tournament=99999999999999999999&player=a%20b",
    ],
)
def test_the_filter_bars_fields_are_the_loops_labels_widgets_and_errors(query):
    form = GameFilter(QueryDict(query)).form
    form.is_valid()

    assert filter_fields(form) == PAGE_LOOP.render(Context({"form": form}))


def test_a_label_django_would_write_otherwise_is_djangos_and_errors_are_joined():
    form = GameFilter(QueryDict("")).form
    form.label_suffix = " ->"
    form.fields["player"].label = "Who?"
    form.required_css_class = "needed"
    form.fields["source"].required = True
    form.is_valid()
    form.add_error("tournament", ValidationError(["one <error>", "two & more"]))

    assert filter_fields(form) == PAGE_LOOP.render(Context({"form": form}))
    assert '<label for="id_player">Who?</label>' in filter_fields(form)
