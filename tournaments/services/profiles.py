"""A player's page: rating history, games, tournaments, bids, seats and favourite hexes."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import plotly.graph_objects as go
from django.db.models import Avg

from deepsea.charts import embed
from games.models import GameSeat
from players.models import Player
from ratings.models import RatingChange

FAVOURITE_HEXES = 5


def rating_history_figure(player: Player) -> str | None:
    """The Elo history per game type as an embeddable Plotly div (None without games)."""
    changes = RatingChange.objects.filter(player=player).order_by("played_at", "game_id")
    lines: dict[str, tuple[list, list]] = defaultdict(lambda: ([], []))
    for change in changes:
        dates, values = lines[change.game_type]
        dates.append(change.played_at)
        values.append(round(change.elo_after, 1))
    if not lines:
        return None
    figure = go.Figure(
        [go.Scatter(x=x, y=y, mode="lines+markers", name=g) for g, (x, y) in lines.items()]
    )
    figure.update_layout(
        title="Elo rating", height=320, margin={"l": 40, "r": 10, "t": 40, "b": 30}
    )
    return embed(figure, "rating-history")


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
    """The hexes this player took most often (from the verified games' facts)."""
    taken: Counter[str] = Counter()
    for seat in seats:
        for fact in seat.game.facts:
            if fact.get("type") == "take" and fact.get("seat") == seat.seat:
                taken[fact["hex"]] += 1
    return taken.most_common(FAVOURITE_HEXES)


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
