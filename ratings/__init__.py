"""Ratings derived from verified games: Elo and OpenSkill per game type, leaderboards."""
