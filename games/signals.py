"""What other apps hear about verification.

Both are sent inside the verifying transaction, so ratings and statistics
change together with the verdict or not at all.
"""

from django.dispatch import Signal

# kwargs: game (a freshly derived games.Game)
game_verified = Signal()
# kwargs: game (about to be deleted: a reverify no longer accepts its log)
game_retracted = Signal()
