"""Tournament and player services: players.py, seating.py, standings.py, results.py."""

from tournaments.services.players import refresh_player_stats

__all__ = ["refresh_player_stats"]
