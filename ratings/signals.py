"""Signals of the ratings app, for apps that show ratings (stats' page cache)."""

from django.dispatch import Signal

# Sent inside the transaction whenever a game type's ratings changed or a catch-up of them was
# queued (its RatingLedger saved); kwargs: game_type.
ratings_changed = Signal()
# Sent inside a catch-up's transaction (ratings.services.replay) when it rated games whose
# players' Elo going in is not what it was, as a statistics rebuild reads it
# (elo_before_rows: None for a player's first rated game of the type), for the apps that
# counted those games by it (stats' rating bands). kwargs: game_type; moved: (game id,
# player id) -> (Elo going in before, now), for games rated before; newly_rated: (game id,
# player id) -> Elo going in, for games rated for the first time (banded when verified,
# before the rater took them in: ratings.services.running_elo).
elo_going_in_moved = Signal()
