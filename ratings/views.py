from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.dateparse import parse_date
from django.utils.safestring import mark_safe

from common import cache
from common.csv_export import SafeWriter
from engines.registry import GAMES
from ratings.backtest import backtest_game_type
from ratings.leaderboard import Filters, leaderboard_page, leaderboard_rows
from ratings.models import Rating


def known_game(game_type: str) -> None:
    if game_type not in GAMES:
        raise Http404(f"no game {game_type!r}; known: {', '.join(GAMES)}")


def leaderboard_index(request: HttpRequest) -> HttpResponse:
    rated = set(Rating.objects.values_list("game_type", flat=True))
    games = [(game, game in rated) for game in GAMES]
    return render(request, "ratings/index.html", {"games": games})


def filters_from(request: HttpRequest) -> Filters:
    return Filters(
        tournament_only=request.GET.get("games") == "tournament",
        since=parse_date(request.GET.get("since") or "") if request.GET.get("since") else None,
        until=parse_date(request.GET.get("until") or "") if request.GET.get("until") else None,
    )


def leaderboard(request: HttpRequest, game_type: str) -> HttpResponse:
    known_game(game_type)
    try:
        filters = filters_from(request)
    except ValueError:
        filters = Filters()
    if request.GET.get("format") == "csv":
        return leaderboard_csv(game_type, leaderboard_rows(game_type, filters))
    # The tables are rendered once per filter, page and ratings version (common/cache.py).
    number = request.GET.get("page")
    body = cache.fragment(
        cache.RATINGS, game_type, "leaderboard", {"filters": repr(filters), "page": number},
        lambda: leaderboard_body(game_type, filters, number, request),
    )  # fmt: skip
    context = {
        "game_type": game_type,
        "filters": filters,
        "body": body,
        "query": request.GET.urlencode(),
    }
    return render(request, "ratings/leaderboard.html", context)


def leaderboard_body(
    game_type: str, filters: Filters, number: str | None, request: HttpRequest
) -> str:
    page = leaderboard_page(game_type, filters, number)
    # The rows joined here, not in a template loop: a hundred loop turns cost a tenth of
    # the page (issue 25).
    return render_to_string(
        "ratings/_leaderboard_body.html",
        {
            "page": page,
            "rows": mark_safe("".join(r.html() for r in page.object_list if not r.provisional)),
            "provisional": mark_safe("".join(r.html() for r in page.object_list if r.provisional)),
        },
        request=request,
    )


def leaderboard_csv(game_type: str, rows) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="leaderboard-{game_type}.csv"'
    writer = SafeWriter(response)
    writer.writerow(
        [
            "position",
            "handle",
            "name",
            "elo",
            "openskill",
            "games",
            "wins",
            "win_rate",
            "provisional",
        ]
    )
    for row in rows:
        writer.writerow(
            [
                row.position or "",
                row.player.handle,
                row.player.display_name,
                f"{row.elo:.1f}",
                f"{row.openskill:.3f}",
                row.games,
                row.wins,
                f"{row.win_rate:.3f}",
                "yes" if row.provisional else "no",
            ]
        )
    return response


def backtest(request: HttpRequest, game_type: str) -> HttpResponse:
    known_game(game_type)
    return render(
        request,
        "ratings/backtest.html",
        {"game_type": game_type, "result": backtest_game_type(game_type)},
    )
