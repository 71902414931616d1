"""Signals of the ratings app, for apps that show ratings (stats' page cache)."""

from django.dispatch import Signal

# Sent inside the transaction whenever a game type's ratings changed or a catch-up of them was
# queued (its RatingLedger saved); kwargs: game_type.
ratings_changed = Signal()
