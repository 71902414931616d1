"""Inclusion tags other apps' templates use: a game's analysis section, a player's costs."""

from django import template

from analysis.figures import accuracy_history_figure
from analysis.services.review import result_context
from analysis.services.summary import (
    current_analyses,
    latest_analysis,
    player_accuracy,
    player_costs,
)
from common.charts import embed
from engines.analysis.turn_back import GAMES as TURN_BACK_GAMES

register = template.Library()


@register.inclusion_tag("analysis/game_section.html", takes_context=True)
def game_analysis_section(context, log):
    analysis = latest_analysis(log.pk) if log.status == "verified" else None
    section = {
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        # plotly.js's style elements carry the page's CSP nonce (templates/includes/plotly.html).
        "csp_nonce": context.get("csp_nonce"),
        "log": log,
        "analysis": analysis,
        "turn_back_advisor": log.game_type in TURN_BACK_GAMES,
    }
    if analysis is not None and analysis.status == analysis.Status.DONE:
        section.update(result_context(log, analysis))
    return section


@register.inclusion_tag("analysis/player_costs.html")
def player_decision_costs(player, analysed=None):
    """`analysed`: the player's seated analyses' rows (summary.seated_analyses_reading), if
    the page read them already with its other queries."""
    current = current_analyses(player, analysed)  # once for both: a query joining four tables
    games = player_accuracy(player, current)
    figure = accuracy_history_figure(games)
    chart = (
        embed(figure, "accuracy-history", config={"displaylogo": False, "responsive": True})
        if figure
        else None
    )
    return {"rows": player_costs(player, current), "games": games, "accuracy_chart": chart}
