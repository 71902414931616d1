"""Statistics pages: each view reads cubes through a service and hands figures to a template.

The part of a page below its filter bar is rendered once per query string and statistics
version (common/cache.py); the filter bar, with its errors, is rendered on every request.
"""

from django import forms
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.db.models import Sum
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from common import cache
from common.csv_export import csv_response, estimate_cells, estimate_columns
from engines.core.errors import UnsupportedRulesetError
from engines.registry import GAMES, get_game
from stats import figures
from stats.adapters import adapter_for, hex_games
from stats.columns import HEX_COLUMNS, STRATEGY_COLUMNS
from stats.filters import StatsFilter
from stats.models import SimulationBatch, StrategyCubeRollupLive
from stats.services import compiled, hexes, simulation, strategies


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    seats = dict(
        StrategyCubeRollupLive.objects.values_list("game_type").order_by().annotate(n=Sum("n"))
    )
    filters = StatsFilter(request.GET)
    rows = strategies.strategy_table(filters)
    return render(
        request,
        "stats/index.html",
        {
            "games": [(g, get_game(g).title, int(seats.get(g, 0))) for g in GAMES],
            "hex_games": [(g, get_game(g).title) for g in hex_games()],
            "filters": filters,
            "chart": figures.strategy_win_rates(rows) if rows else None,
        },
    )


def request_filters(request: HttpRequest) -> dict:
    """A fragment's cache parameters: the query string, in a canonical order."""
    return {"query": sorted(request.GET.lists())}


@require_GET
def hex_list(request: HttpRequest) -> HttpResponse:
    filters = StatsFilter(request.GET, games=hex_games())
    game = filters.game_id
    if request.GET.get("format") == "csv":
        rows = hexes.hex_table(filters, request.GET.get("sort", "improvement"))
        return hexes_csv(game, rows)
    body = cache.fragment(
        cache.STATS, game, "hexes", request_filters(request),
        lambda: hex_list_body(request, filters),
    )  # fmt: skip
    return render(
        request,
        "stats/hexes.html",
        {"filters": filters, "body": body, "game_title": get_game(game).title},
    )


HEX_CSV_COLUMNS = [
    "offered",
    "taken",
    "take_rate",
    "avg_position",
    "avg_paid",
    "avg_found",
    *estimate_columns("owned_win_rate_over_par"),
    *estimate_columns("passed_win_rate_over_par"),
    *estimate_columns("improvement"),
    "early_win_rate_over_par",
    "late_win_rate_over_par",
    "trigger_share",
    "archaea_per_activation",
    "attacks",
    "damage",
    "decimated",
    "survival",
    "sample",
    "greyed",
]


def hexes_csv(game: str, rows: list[hexes.HexStats]) -> HttpResponse:
    return csv_response(
        f"{game}-hexes.csv",
        ["hex", "name", *HEX_CSV_COLUMNS],
        (
            [
                r.hex,
                r.name,
                r.offered,
                r.taken,
                r.take_rate.value,
                r.avg_position,
                r.avg_paid,
                r.avg_found,
                *estimate_cells(r.owned_rate),
                *estimate_cells(r.passed_rate),
                *estimate_cells(r.improvement),
                r.early_rate.value,
                r.late_rate.value,
                r.trigger_share.value,
                r.archaea_per_activation,
                r.attacks,
                r.damage,
                r.decimated,
                r.survival.value,
                r.sample,
                r.greyed,
            ]
            for r in rows
        ),
    )


def strategies_csv(game: str, rows: list[strategies.StrategyStats]) -> HttpResponse:
    return csv_response(
        f"{game}-strategies.csv",
        [
            "strategy",
            "games",
            *estimate_columns("win_rate"),
            *estimate_columns("win_rate_over_par"),
            *estimate_columns("average_score"),
            "average_rank",
            "greyed",
        ],
        (
            [
                r.label,
                r.games,
                *estimate_cells(r.win_rate),
                *estimate_cells(r.relative),
                *estimate_cells(r.score),
                r.avg_rank,
                r.greyed,
            ]
            for r in rows
        ),
    )


def hex_list_body(request: HttpRequest, filters: StatsFilter) -> str:
    sort = request.GET.get("sort", "improvement")
    rows = hexes.hex_table(filters, sort)
    query = request.GET.copy()
    query.pop("sort", None)
    return render_to_string(
        "stats/_hexes_body.html",
        {
            "filters": filters,
            "rows": rows,
            "columns": HEX_COLUMNS,
            "sort": sort,
            "query": query.urlencode(),
            "chart": figures.hex_scatter(rows, filters.threshold) if rows else None,
        },
    )


@require_GET
def hex_detail(request: HttpRequest, hex_id: str) -> HttpResponse:
    filters = StatsFilter(request.GET, games=hex_games())
    names = hexes.hex_names(filters.game_id)
    if hex_id not in names:
        raise Http404(f"no {get_game(filters.game_id).title} hex {hex_id!r}")
    name = names[hex_id]
    body = cache.fragment(
        cache.STATS, filters.game_id, f"hex/{hex_id}", request_filters(request),
        lambda: hex_detail_body(filters, hex_id, name),
    )  # fmt: skip
    return render(
        request,
        "stats/hex_detail.html",
        {"filters": filters, "name": name, "body": body, "query": request.GET.urlencode()},
    )


def hex_detail_body(filters: StatsFilter, hex_id: str, name: str) -> str:
    row = hexes.hex_detail(filters, hex_id)
    charts = []
    if row is not None:
        charts = [figures.hex_win_rates(row), figures.hex_positions(row), figures.hex_use(row)]
    return render_to_string(
        "stats/_hex_detail_body.html",
        {"filters": filters, "name": name, "row": row, "charts": charts},
    )


@require_GET
def strategy_list(request: HttpRequest) -> HttpResponse:
    filters = StatsFilter(request.GET)
    game = filters.game_id
    if request.GET.get("format") == "csv":
        return strategies_csv(game, strategies.strategy_table(filters))
    body = cache.fragment(
        cache.STATS, game, "strategies", request_filters(request),
        lambda: strategy_list_body(filters),
    )  # fmt: skip
    return render(
        request,
        "stats/strategies.html",
        {"filters": filters, "game_title": get_game(game).title, "body": body},
    )


def strategy_list_body(filters: StatsFilter) -> str:
    game = filters.game_id
    # The page's queries in one statement: one round trip instead of five (issue 25).
    compiled.together(filters, [*strategies.PAGE_QUERIES, *adapter_for(game).strategy_queries()])
    rows = strategies.strategy_table(filters)
    charts = []
    context = {"filters": filters, "rows": rows, "columns": STRATEGY_COLUMNS}
    if rows:
        names, shares, meetings = strategies.head_to_head(filters)
        positions = strategies.position_advantages(filters)
        charts += [
            figures.strategy_win_rates(rows),
            figures.head_to_head(names, shares, meetings),
            figures.score_boxes(strategies.score_distributions(filters)),
            figures.position_advantage(positions["seat"], positions["turn_order"]),
        ]
        charts += adapter_for(game).strategy_charts(filters, context)
    context["charts"] = charts
    return render_to_string("stats/_strategies_body.html", context)


class LabForm(forms.Form):
    game = forms.ChoiceField(choices=[(g, get_game(g).title) for g in GAMES])
    ruleset = forms.CharField(max_length=40, initial="starting-bid")
    players = forms.IntegerField(min_value=2, max_value=6, initial=4)
    strategies = forms.CharField(
        required=False,
        help_text="Comma-separated, one per seat; empty: random line-ups",
    )
    all_combinations = forms.BooleanField(required=False, label="Every combination")
    games = forms.IntegerField(min_value=1, max_value=simulation.MAX_GAMES, initial=100)
    seed = forms.CharField(
        max_length=64, required=False, help_text="The same seed plays the same games; empty: new"
    )

    def strategy_list(self) -> list[str]:
        text = self.cleaned_data["strategies"]
        return [s.strip() for s in text.split(",") if s.strip()]


@staff_member_required
def lab(request: HttpRequest) -> HttpResponse:
    form = LabForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            batch = simulation.create_batch(
                game_id=data["game"],
                ruleset=data["ruleset"],
                players=data["players"],
                games=data["games"],
                strategies=form.strategy_list(),
                all_combinations=data["all_combinations"],
                seed=data["seed"],
                user=request.user,
            )
        except UnsupportedRulesetError as exc:
            form.add_error(None, str(exc))
        else:
            simulation.launch(batch)
            messages.success(request, f"{batch.name}: {batch.games} games queued.")
            return redirect("stats:batch", batch.pk)
    strategies_by_game = {g: sorted(get_game(g).strategies) for g in GAMES}
    rulesets_by_game = {g: sorted(get_game(g).rulesets()) for g in GAMES}
    return render(
        request,
        "stats/lab.html",
        {
            "form": form,
            # progress() also marks a batch done once every game has its verdict, so the
            # list never shows a finished batch as running.
            "batches": [(b, simulation.progress(b)) for b in SimulationBatch.objects.all()[:20]],
            "strategies_by_game": strategies_by_game,
            "rulesets_by_game": rulesets_by_game,
        },
    )


@staff_member_required
def batch(request: HttpRequest, pk: int) -> HttpResponse:
    batch = get_object_or_404(SimulationBatch, pk=pk)
    context = {
        "batch": batch,
        "progress": simulation.progress(batch),
        "game_title": get_game(batch.game_type).title,
    }
    return render(request, "stats/batch.html", context)


@staff_member_required
def batch_progress_box(request: HttpRequest, pk: int) -> HttpResponse:
    """The progress box alone, which htmx swaps in every second until the batch ends."""
    batch = get_object_or_404(SimulationBatch, pk=pk)
    return render(
        request,
        "stats/_batch_progress.html",
        {"batch": batch, "progress": simulation.progress(batch)},
    )


@staff_member_required
def batch_progress(request: HttpRequest, pk: int) -> JsonResponse:
    return JsonResponse(simulation.progress(get_object_or_404(SimulationBatch, pk=pk)))
