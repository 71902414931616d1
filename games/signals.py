"""What other apps hear about verification.

Both are sent inside the verifying transaction, so ratings and statistics
change together with the verdict or not at all.
"""

from django.dispatch import Signal

# kwargs: game (a freshly derived games.Game), group (a VerifiedGroup or None). When a batch
# commits several games at once, `group.defer(function, game)` lets a receiver do its work
# once for all of them: function(games) runs at the end of the group, still in the transaction.
game_verified = Signal()
# kwargs: game (about to be deleted: a reverify no longer accepts its log)
game_retracted = Signal()
