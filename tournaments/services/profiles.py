"""A player's page: rating history, games, tournaments, bids, seats and favourite hexes."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import plotly.io as pio
from django.db.models import Avg

from deepsea.charts import embed
from engines.registry import GAMES, get_game
from games.models import GameSeat
from players.models import Player
from ratings.models import RatingChange
from ratings.skill import ordinal
from stats.services.hexes import hex_names

FAVOURITE_HEXES = 5
COLOURS = ["#1f6fb2", "#c05621", "#2c7a7b", "#6b46c1"]


def rating_history_figure(player: Player) -> str | None:
    """Elo (top) and OpenSkill's mu - 3 sigma (below) after each rated game, one line per game
    type, as an embeddable Plotly div (None without rated games)."""
    changes = RatingChange.objects.filter(player=player).order_by("played_at", "game_id")
    lines: dict[str, dict[str, list]] = defaultdict(lambda: {"x": [], "elo": [], "skill": []})
    for change in changes:
        line = lines[change.game_type]
        line["x"].append(change.played_at.isoformat())
        line["elo"].append(round(change.elo_after, 1))
        line["skill"].append(round(ordinal((change.mu_after, change.sigma_after)), 2))
    if not lines:
        return None
    traces = []
    for index, (game_type, line) in enumerate(lines.items()):
        title = get_game(game_type).title if game_type in GAMES else game_type
        colour = COLOURS[index % len(COLOURS)]
        common = {"type": "scatter", "mode": "lines+markers", "x": line["x"], "legendgroup": title}
        traces.append(
            {
                **common,
                "y": line["elo"],
                "name": f"{title} Elo",
                "line": {"color": colour},
                "hovertemplate": "%{x|%Y-%m-%d %H:%M}: Elo %{y:.0f}<extra>" + title + "</extra>",
            }
        )
        traces.append(
            {
                **common,
                "y": line["skill"],
                "name": f"{title} OpenSkill",
                "line": {"color": colour, "dash": "dot"},
                "yaxis": "y2",
                "hovertemplate": "%{x|%Y-%m-%d %H:%M}: OpenSkill \u03bc \u2212 3\u03c3 "
                "%{y:.2f}<extra>" + title + "</extra>",
            }
        )
    layout = {
        "title": {"text": "Ratings after each verified game"},
        "height": 480,
        "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
        "xaxis": {"title": {"text": "Date played"}, "anchor": "y2"},
        "yaxis": {"title": {"text": "Elo (points)"}, "domain": [0.55, 1]},
        "yaxis2": {"title": {"text": "OpenSkill (\u03bc \u2212 3\u03c3)"}, "domain": [0, 0.42]},
        "legend": {"orientation": "h", "y": -0.2},
        "template": pio.templates["plotly_white"].to_plotly_json(),
    }
    return embed(
        {"data": traces, "layout": layout},
        "rating-history",
        config={"displaylogo": False, "responsive": True},
    )


def seat_results(seats: list[GameSeat]) -> list[dict[str, Any]]:
    """Games, wins and average placement by position in turn order."""
    by_position: dict[int, list[GameSeat]] = defaultdict(list)
    for seat in seats:
        if seat.turn_order is not None:
            by_position[seat.turn_order].append(seat)
    return [
        {
            "turn_order": position,
            "games": len(group),
            "wins": sum(s.winner for s in group),
            "average_rank": sum(s.rank for s in group) / len(group),
        }
        for position, group in sorted(by_position.items())
    ]


def favourite_hexes(seats: list[GameSeat]) -> list[tuple[str, int]]:
    """The hexes this player took most often (from the verified games' facts), by name."""
    taken: Counter[str] = Counter()
    for seat in seats:
        for fact in seat.game.facts:
            if fact.get("type") == "take" and fact.get("seat") == seat.seat:
                taken[fact["hex"]] += 1
    names = hex_names()
    return [(names.get(h, h), n) for h, n in taken.most_common(FAVOURITE_HEXES)]


def player_profile(player: Player) -> dict[str, Any]:
    seats = list(
        GameSeat.objects.filter(player=player)
        .select_related("game__log")
        .order_by("-game__played_at", "-game_id")
    )
    counted = [seat for seat in seats if seat.game.counts]  # pending/disputed games: listed only
    return {
        "player": player,
        "rating_chart": rating_history_figure(player),
        "ratings": player.ratings.order_by("game_type"),
        "seats": seats,
        "registrations": player.registrations.select_related("tournament"),
        "average_bid": GameSeat.objects.filter(
            player=player, bid__isnull=False, game__counts=True
        ).aggregate(average=Avg("bid"))["average"],
        "seat_results": seat_results(counted),
        "favourite_hexes": favourite_hexes(counted),
    }
