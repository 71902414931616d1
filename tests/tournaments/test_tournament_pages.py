"""The public tournament pages: list, tournament, printable seating sheet, bid record."""

from io import StringIO

import pytest
from demo_support import load_tournament_demo
from django.core.management import call_command
from django.utils import timezone

from tournaments import demo
from tournaments.models import Tournament


@pytest.fixture
def finished(db) -> Tournament:
    load_tournament_demo()
    return Tournament.objects.get(slug=demo.DEMO_SLUG)


def test_demo_builds_one_finished_tournament_with_verified_tables(finished):
    assert finished.status == "finished"
    assert finished.rounds.count() == finished.rounds_planned
    kinds = {t.result_kind for r in finished.rounds.all() for t in r.tables.all()}
    assert kinds == {"verified"}


def test_demo_loads_once(finished):
    out = StringIO()
    demo.load(out)

    assert "already there" in out.getvalue()
    assert Tournament.objects.count() == 2


def test_the_demo_has_a_tournament_open_for_registration_a_week_ahead(client, finished):
    upcoming = Tournament.objects.get(slug=demo.UPCOMING_SLUG)

    assert upcoming.status == Tournament.Status.REGISTRATION and upcoming.registration_open
    assert upcoming.starts_on > timezone.localdate()
    assert sorted(r.player.handle for r in upcoming.registrations.all()) == sorted(
        demo.UPCOMING_ENTRANTS
    )


def test_tournament_list_links_each_tournament(client, finished):
    page = client.get("/tournaments/").content.decode()

    assert f'href="/tournaments/{finished.slug}/"' in page


def test_tournament_page_shows_rounds_tables_standings_and_the_tiebreaks(client, finished):
    page = client.get(f"/tournaments/{finished.slug}/").content.decode()

    for heading in ("Standings", "Sonneborn-Berger", "Opp. avg", "Round 3", "Table 1"):
        assert heading in page
    assert page.count("opens bidding") == finished.rounds_planned * 3


def test_seating_sheet_lists_each_table_and_its_opening_bidder(client, finished):
    page = client.get(f"/tournaments/{finished.slug}/round/1/").content.decode()

    assert page.count("<h2>Table") == 3
    assert page.count("★ opens the bidding</li>") == 3
    assert 'media="print"' in page


def test_bid_record_shows_every_bid_and_pass_and_the_winner(client, finished):
    table = finished.rounds.get(number=1).tables.get(number=1)
    bids = [f for f in table.game.facts if f["type"] in ("bid", "pass")]

    page = client.get(table.get_absolute_url()).content.decode()

    assert page.count(" bids ") == sum(f["type"] == "bid" for f in bids)
    assert page.count(" passes") == sum(f["type"] == "pass" for f in bids)
    assert "wins the bidding at" in page


def test_seat_round_command_seats_the_next_round(db):
    from players.models import Player
    from tournaments.models import Registration

    cup = Tournament.objects.create(name="Cup", slug="cup", starts_on="2026-01-01")
    for handle in "abcde":
        Registration.objects.create(
            tournament=cup, player=Player.objects.create(handle=handle, display_name=handle)
        )
    out = StringIO()

    call_command("seat_round", "cup", stdout=out)

    assert "round 1" in out.getvalue()
    assert out.getvalue().count("opens bidding") == 2
    assert [t.seats.count() for t in cup.rounds.get().tables.all()] == [3, 2]


def test_a_running_tournament_links_each_open_table_to_the_record_page(client, db):
    from players.models import Player
    from tournaments.models import Registration

    cup = Tournament.objects.create(name="Cup", slug="cup", starts_on="2026-01-01")
    for handle in "abcd":
        Registration.objects.create(
            tournament=cup, player=Player.objects.create(handle=handle, display_name=handle)
        )
    call_command("seat_round", "cup", stdout=StringIO())
    table = cup.rounds.get().tables.get()

    page = client.get(f"/tournaments/{cup.slug}/").content.decode()

    assert f'href="/record/?table={table.pk}"' in page


def test_a_finished_tournament_offers_no_recording(client, finished):
    page = client.get(f"/tournaments/{finished.slug}/").content.decode()

    assert "/record/?table=" not in page


def test_recompute_ratings_command_reports_the_games_rated(finished):
    out = StringIO()

    call_command("recompute_ratings", stdout=out)

    assert "deep-vents: 9 rated game(s)" in out.getvalue()


def test_before_round_one_the_page_lists_who_is_registered_not_a_table_of_zeros(client, finished):
    upcoming = Tournament.objects.get(slug=demo.UPCOMING_SLUG)

    page = client.get(upcoming.get_absolute_url()).content.decode()
    listed = page.split('id="registered-players"')[1].split("</ul>")[0]

    assert f"Registered players ({len(demo.UPCOMING_ENTRANTS)})" in page
    assert listed.count("<li ") == len(demo.UPCOMING_ENTRANTS)
    for registration in upcoming.registrations.select_related("player"):
        assert f'href="{registration.player.get_absolute_url()}"' in listed
    assert 'id="registration-open"' in page
    assert "Download the standings as CSV" not in page and "Opp. avg</th>" not in page
