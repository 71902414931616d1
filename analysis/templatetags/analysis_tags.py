"""Inclusion tags other apps' templates use: a game's analysis section, a player's costs."""

from django import template

from analysis import figures
from analysis.services.summary import describe, latest_analysis, player_costs

register = template.Library()


@register.filter
def action_text(action: dict) -> str:
    return describe(action)


@register.inclusion_tag("analysis/game_section.html", takes_context=True)
def game_analysis_section(context, log, players):
    analysis = latest_analysis(log.pk) if log.status == "verified" else None
    section = {
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        # plotly.js's style elements carry the page's CSP nonce (templates/includes/plotly.html).
        "csp_nonce": context.get("csp_nonce"),
        "log": log,
        "analysis": analysis,
    }
    if analysis is not None and analysis.status == analysis.Status.DONE:
        section["figure"] = figures.win_probability_figure(analysis.decisions, players)
        section["mistakes"] = figures.biggest_mistakes(analysis.decisions)
    return section


@register.inclusion_tag("analysis/player_costs.html")
def player_decision_costs(player):
    return {"rows": player_costs(player)}
