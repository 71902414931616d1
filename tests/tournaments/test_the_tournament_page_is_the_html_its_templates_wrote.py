# ruff: noqa: E501, RUF001 (the templates as they were, en dashes and all)
"""The tournament page is read in one round trip of queries compiled once and written by
tags in Python (tournaments.services.tournament_page, tournament_tables; issue 25), and is
byte for byte the page its templates wrote from the models before: the template's loops as
they were, over the tables, seats, games and standings read through the ORM's models. For
names holding <, & and quotes, dropped and unregistered players, verified, hand-entered and
awaited tables, a game that does not count, a tournament before its first round or with
nobody registered, an organiser signed in, time zones, and with the queries asked of the
ORM one by one (SQLite, or a connection binding on the server)."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest
from demo_support import load_tournament_demo
from django.template import engines
from django.utils import timezone
from tournament_day_support import tournament_day

from common import compiled
from games.models import Game
from players.models import Player
from tournaments import demo
from tournaments.models import Registration, Table, Tournament
from tournaments.services.day import runs
from tournaments.services.standings import standings_shown
from tournaments.services.table_views import seat_views
from tournaments.views import standings_csv

pytestmark = pytest.mark.django_db

HOSTILE = "<b>&amp;\"quoted\" 'single'</b>"

# templates/tournaments/_seats.html and detail.html as they were before the page's loops
# were written in Python (the seats included from the first).
SEATS_LOOP_TEXT = """{% load seat_summaries %}{% with columns=game_type|seat_columns %}<div class="table-scroll"><table class="seats">
  <thead><tr><th>Place</th><th>Player</th><th>Score</th>{% for column in columns %}<th>{{ column.label }}</th>{% endfor %}</tr></thead>
  <tbody>
  {% for s in seats %}
    <tr>
      <td>{{ s.rank|default:"–" }}</td>
      <td><a href="{{ s.player.get_absolute_url }}">{{ s.player.display_name }}</a>
        {% if s.opening_bidder %}<span class="tag" title="drawn to open the bidding (DV-3)">opens bidding</span>{% endif %}
        {% if s.eliminated_turn is not None %}<span class="tag" title="DV-8">eliminated (game turn {{ s.eliminated_turn }})</span>{% endif %}</td>
      <td>{% if s.score is None %}–{% else %}{{ s.score|floatformat:"-1" }}{% endif %}</td>
      {% for column in columns %}<td>{{ s.summary|summary_value:column.key|default_if_none:"–" }}</td>{% endfor %}
    </tr>
  {% endfor %}
  </tbody>
</table></div>{% endwith %}
"""
PAGE_TEXT = """{% extends "base.html" %}
{% load l10n names %}
{% block title %}{{ tournament.name }}{% endblock %}
{% block content %}
<h1>{{ tournament.name }}</h1>
<p>{{ tournament.game_type|game_title }}, {{ tournament.ruleset }} ruleset · {{ tournament.get_format_display }} over {{ tournament.rounds_planned }} rounds ·
  {{ tournament.starts_on }}{% if tournament.ends_on and tournament.ends_on != tournament.starts_on %} – {{ tournament.ends_on }}{% endif %} ·
  {{ tournament.get_status_display }} · {{ registrations|length }} players</p>
<p class="day-links">{% if tournament.status != "finished" %}<a href="{% url 'tournaments:me' tournament.slug %}" id="my-tournament">My tournament: register, check in, my table</a> · {% endif %}<a href="{% url 'tournaments:screen' tournament.slug %}">Venue screen</a> · <a href="{% url 'tournaments:calendar' tournament.slug %}">Calendar (iCal)</a>{% if runs_it %} · <a href="{% url 'tournaments:desk' tournament.slug %}" id="desk-link">Organiser's desk</a>{% endif %}</p>

{% if rounds %}
<h2 id="standings">Standings</h2>
<p class="downloads"><a href="?format=csv" download>Download the standings as CSV</a></p>
{% comment %}A player with no result yet (row.placed false) shows a dash, not a place and 0
  points that would read as a real result; those come last, by name (standings_shown), and
  sorting by # returns to that order.
  Eight columns do not fit a phone: rather than hide the tiebreaks that decide a place,
  the table scrolls inside its own box (never the page), and the player's name (.identity) stays
  at its left edge, so a row scrolled to its tiebreaks still says whose it is.{% endcomment %}
<div class="table-scroll"><table class="standings sortable">
  <thead><tr>
    <th scope="col" aria-sort="ascending" data-sort-first="ascending" title="Position in the standings: points, then the tiebreaks below">#</th>
    <th scope="col" class="identity">Player</th>
    <th scope="col" title="Table points: 3 for a win at any table size">Points</th>
    <th scope="col" title="Tables played">Tables</th>
    <th scope="col" title="Sonneborn-Berger, the first tiebreak">SB</th>
    <th scope="col" title="Average final points of the opponents met">Opp. avg</th>
    <th scope="col" data-sort-first="ascending" title="Average placement at the tables (lower is better)">Avg place</th>
    <th scope="col" title="In-game scores added up">Game score</th>
  </tr></thead>
  <tbody>
  {% for row in standings %}
    <tr data-handle="{{ row.player.handle }}">
      <td data-sort="{{ forloop.counter }}">{% if row.placed %}{{ row.position }}{% else %}–{% endif %}</td>
      <td data-sort="{{ row.player.display_name }}" class="identity"><a href="{{ row.player.get_absolute_url }}">{{ row.player.display_name }}</a>{% if row.dropped %} <span class="tag">dropped</span>{% endif %}{% if row.unverified_tables %} <span class="tag" title="results entered by hand">{{ row.unverified_tables }} unverified</span>{% endif %}</td>
      <td data-sort="{{ row.points|unlocalize }}">{% if row.placed %}{{ row.points|floatformat:2 }}{% else %}–{% endif %}</td>
      <td data-sort="{{ row.tables }}">{{ row.tables }}</td>
      <td data-sort="{{ row.sonneborn_berger|unlocalize }}">{% if row.placed %}{{ row.sonneborn_berger|floatformat:2 }}{% else %}–{% endif %}</td>
      <td data-sort="{{ row.opponents_average|unlocalize }}">{% if row.placed %}{{ row.opponents_average|floatformat:2 }}{% else %}–{% endif %}</td>
      <td data-sort="{{ row.average_placement|default_if_none:''|unlocalize }}">{{ row.average_placement|floatformat:2|default:"–" }}</td>
      <td data-sort="{{ row.total_score|unlocalize }}">{% if row.placed %}{{ row.total_score|floatformat:0 }}{% else %}–{% endif %}</td>
    </tr>
  {% endfor %}
  </tbody>
</table></div>
{% else %}{# Before round 1 every row would read 0: who is coming is the news. #}
<h2 id="standings">Registered players ({{ standings|length }})</h2>
{% if tournament.registration_open %}<p id="registration-open">Registration is open: <a href="{% url 'tournaments:me' tournament.slug %}">register on your tournament page</a>.</p>{% endif %}
{% include "tournaments/_registered.html" with linked=True %}
{% endif %}
<details{% if rounds %} open{% endif %}>
  <summary>How standings are decided</summary>
  <p>At a table of <em>n</em> players each player scores 3 × (opponents outranked + ½ × opponents tied) / (<em>n</em> − 1):
    a win is worth 3 at any table size. Eliminated players (DV-8) place last at their table, later eliminations above earlier ones.</p>
  <p>Ties in points are broken, in this order, by:</p>
  <ol>
    <li><strong>SB</strong> (multiplayer Sonneborn-Berger): at each table, the final points of every opponent you outranked, plus half of every opponent you tied, divided by (<em>n</em> − 1).</li>
    <li><strong>Opp. avg</strong>: the average final points of the opponents you met.</li>
    <li><strong>Avg place</strong>: your average placement (lower is better).</li>
    <li><strong>Game score</strong>: your in-game scores added up.</li>
    <li>Finally, a draw made from the tournament's recorded seed at registration, so the order never depends on chance on the day.</li>
  </ol>
  <p>Players with no result yet show a dash and are listed by name.</p>
  <p>Results entered by hand are flagged unverified: they count here but not for ratings or statistics.</p>
</details>

<h2>Rounds</h2>
{% for round, tables in rounds %}
<section class="round">
  <h3>Round {{ round.number }} <small>(<a href="{% url 'tournaments:seating' tournament.slug round.number %}">seating sheet</a>)</small></h3>
  {% for table, seats in tables %}
  <article class="table">
    <h4>Table {{ table.number }} · {{ seats|length }} players ·
      {% if table.result_kind == "verified" %}verified result{% elif table.result_kind == "unverified" %}<span class="tag">unverified: entered by hand</span>{% else %}awaiting result{% endif %}
      · <a href="{{ table.get_absolute_url }}">bid record</a>{% if table.result_kind == "verified" %} · <a href="{{ table.log.get_absolute_url }}">the game</a>{% endif %}{% if table.result_kind == "pending" and not table.log_id and tournament.status == "running" %}
      · <a href="{% url 'games:record' %}?table={{ table.pk }}">record this game</a>{% endif %}</h4>
    {% include seats_loop with seats=seats game_type=tournament.game_type %}
  </article>
  {% endfor %}
</section>
{% empty %}
<p>No round has been seated yet.</p>
{% endfor %}
{% endblock %}
"""
SEATS_LOOP = engines["django"].from_string(SEATS_LOOP_TEXT).template
PAGE = engines["django"].from_string(PAGE_TEXT)


def as_the_templates_wrote_it(tournament: Tournament, request) -> str:
    """The page as the view wrote it from the models, through the loops above."""
    tables = list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("round__tournament", "log__game")
        .defer("log__raw")
        .prefetch_related("seats__player", "log__game__seats", "log__game__tournament_eliminations")
        .order_by("round__number", "number")
    )
    by_round = defaultdict(list)
    for table in tables:
        by_round[table.round_id].append((table, seat_views(table)))
    context = {
        "tournament": tournament,
        "rounds": [(r, by_round[r.pk]) for r in tournament.rounds.order_by("-number")],
        "standings": standings_shown(tournament, tables),
        "registrations": tournament.registrations.select_related("player"),
        "runs_it": runs(request.user, tournament),
        "seats_loop": SEATS_LOOP,
    }
    return PAGE.render(context, request)


def blanked(html: str) -> str:
    """The page with its CSP nonce and its CSRF token (signed in) blanked: new on every
    request, or masked anew each time it is written."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', 'name="csrfmiddlewaretoken"', html)
    return re.sub(r'nonce="[^"]*"', 'nonce=""', html)


def pages(client, slug: str) -> tuple[str, str]:
    """(the page as served, the page as its templates wrote it for the same request)."""
    response = client.get(f"/tournaments/{slug}/")
    assert response.status_code == 200
    tournament = Tournament.objects.get(slug=slug)
    written = as_the_templates_wrote_it(tournament, response.wsgi_request)
    return blanked(response.content.decode()), blanked(written)


@pytest.fixture(params=["in one trip", "asked of the ORM", "bound on the server"])
def read_as(request, monkeypatch):
    """How the page's queries are sent: compiled, in one round trip (PostgreSQL); each
    asked of the ORM (not compiled: SQLite); or each compiled query asked alone (in_one_trip
    refuses a connection binding on the server): common.compiled.read."""
    if request.param == "asked of the ORM":
        monkeypatch.setattr(compiled, "compile_once", lambda *args: None)
    elif request.param == "bound on the server":
        monkeypatch.setattr(compiled, "in_one_trip", lambda asked: None)
    return request.param


def hostile_demo() -> Tournament:
    """The demo tournament (finished, every table verified) with hostile names, a dropped
    player, a player seated but no longer registered, and a table whose game does not
    count."""
    load_tournament_demo()
    tournament = Tournament.objects.get(slug=demo.DEMO_SLUG)
    Tournament.objects.filter(pk=tournament.pk).update(name=HOSTILE)
    registrations = list(tournament.registrations.order_by("player__handle"))
    Player.objects.filter(pk=registrations[0].player_id).update(display_name=HOSTILE)
    Player.objects.filter(pk=registrations[1].player_id).update(display_name="Zoë <O'Súil>")
    Registration.objects.filter(pk=registrations[2].pk).update(dropped_after_round=2)
    registrations[3].delete()
    table = Table.objects.filter(round__tournament=tournament).order_by("round__number").last()
    Game.objects.filter(log_id=table.log_id).update(counts=False)
    return tournament


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Chatham", "America/St_Johns"])
def test_a_finished_tournament_is_the_templates_page_with_hostile_names(client, read_as, zone):
    hostile_demo()
    with timezone.override(zone):
        served, written = pages(client, demo.DEMO_SLUG)

    assert served == written
    assert HOSTILE not in served and "&lt;b&gt;&amp;amp;&quot;quoted&quot;" in served
    assert "Zoë &lt;O&#x27;Súil&gt;" in served
    assert '<span class="tag">dropped</span>' in served
    assert "verified result" in served and "awaiting result" in served
    assert "eliminated (game turn" in served and "opens bidding" in served


def test_a_running_tournament_with_hand_entered_and_awaited_tables_is_the_templates_page(
    client, read_as, one_table_played
):
    Tournament.objects.filter(pk=one_table_played.tournament.pk).update(
        status=Tournament.Status.RUNNING
    )
    Player.objects.filter(pk=one_table_played.played[0].pk).update(display_name=HOSTILE)
    client.force_login(one_table_played.organiser)

    served, written = pages(client, one_table_played.tournament.slug)

    assert served == written
    assert "unverified: entered by hand" in served and "record this game</a>" in served
    assert 'id="desk-link"' in served


def test_a_tournament_before_its_first_round_is_the_templates_page(client, read_as):
    day = tournament_day()
    for name in ["Marina Abyss", "Zoë Ó Súilleabháin"]:
        Registration.objects.create(tournament=day.tournament, player=day.player(name))
    Player.objects.filter(pk=day.player("Marina Abyss").pk).update(display_name=HOSTILE)

    served, written = pages(client, day.tournament.slug)
    nobody, nobody_written = pages(client, "other-cup")

    assert served == written and nobody == nobody_written
    assert "Registered players (2)" in served and "No round has been seated yet." in served
    assert "Nobody has registered yet." in nobody


def test_the_standings_csv_is_the_standings_read_from_the_models(client, read_as):
    tournament = hostile_demo()

    served = client.get(f"/tournaments/{demo.DEMO_SLUG}/?format=csv")

    assert served.content == standings_csv(tournament, standings_shown(tournament)).content
    assert served["Content-Type"].startswith("text/csv")


def test_no_tournament_of_the_slug_is_not_found(client, read_as):
    load_tournament_demo()

    assert client.get("/tournaments/no-such-tournament/").status_code == 404
