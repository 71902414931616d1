from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from common.csv_export import csv_response
from games.names import game_name
from tournaments.models import Round, Table, Tournament
from tournaments.services import seating
from tournaments.services.day import runs
from tournaments.services.standings import Standing
from tournaments.services.table_views import bid_record, seat_views
from tournaments.services.tournament_page import tournament_shown


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"tournaments": Tournament.objects.all()})


def standings_csv(tournament: Tournament, standings: list[Standing]) -> HttpResponse:
    """The standings as the page shows them (the internal draw stays out): a player with no
    result yet has empty cells where the page shows a dash, not a place and 0 points that
    would read as a real result (Standing.placed)."""
    header = [
        "position",
        "handle",
        "name",
        "points",
        "tables",
        "sonneborn_berger",
        "opponents_average",
        "average_placement",
        "game_score",
        "dropped",
        "unverified_tables",
    ]
    rows = (
        [
            r.position if r.placed else None,
            r.player.handle,
            r.player.display_name,
            round(r.points, 4) if r.placed else None,
            r.tables,
            round(r.sonneborn_berger, 4) if r.placed else None,
            round(r.opponents_average, 4) if r.placed else None,
            None if r.average_placement is None else round(r.average_placement, 4),
            r.total_score if r.placed else None,
            r.dropped,
            r.unverified_tables,
        ]
        for r in standings
    )
    return csv_response(f"{tournament.slug}-standings.csv", header, rows)


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    shown = tournament_shown(slug)
    if shown is None:
        raise Http404("No Tournament matches the given query.")
    tournament = shown.tournament
    if request.GET.get("format") == "csv":
        return standings_csv(tournament, shown.standings)
    context = {
        "tournament": tournament,
        "rounds": shown.rounds,
        "standings": shown.standings,
        "runs_it": runs(request.user, tournament),
    }
    return render(request, "tournaments/detail.html", context)


def seating_sheet(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The tables in seat order (the order that decides who opens and who bids last) and
    the round's pairing quality."""
    round_ = get_object_or_404(
        Round.objects.select_related("tournament"), tournament__slug=slug, number=number
    )
    tables = [
        (table, list(table.seats.all()))
        for table in round_.tables.prefetch_related("seats__player")
    ]
    context = {
        "round": round_,
        "tables": tables,
        "quality": seating.pairing_quality(round_.tournament, round_.number),
    }
    return render(request, "tournaments/seating.html", context)


def table_detail(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    table = get_object_or_404(
        Table.objects.select_related("round__tournament", "log__game"),
        round__tournament__slug=slug,
        round__number=number,
        number=table,
    )
    game = table.game
    context = {
        "table": table,
        "game_name": game_name(game) if game is not None else "",
        "seats": seat_views(table),
        "bids": bid_record(table),
    }
    return render(request, "tournaments/table.html", context)
