"""What other apps hear about verification and counting.

Each is sent inside the transaction that changes the game, so ratings and statistics
change together with the verdict (or the confirmation) or not at all.
"""

from django.dispatch import Signal

# kwargs: game (a freshly derived games.Game), group (a VerifiedGroup or None). When a batch
# commits several games at once, `group.defer(function, game, *args)` lets a receiver do its
# work once for all of them: function(games, *args) runs at the end of the group, still in the
# transaction.
game_verified = Signal()
# kwargs: game (about to be deleted: a reverify no longer accepts its log; or set aside, kept
# but no longer counting: its tournament table's result was undone)
game_retracted = Signal()
# kwargs: game, group (as for game_verified). The verified game now counts for ratings,
# standings and statistics: at verification when nobody has to confirm it, else later, when
# its players have confirmed it or staff accepted it (confirmations app). Sent inside the
# transaction that makes it count; receivers are idempotent per game.
game_counted = Signal()
# kwargs: keep (the Player kept), duplicates (the Players merged into it) and games (the ids of
# the games whose seats moved from the duplicates to keep). Sent inside a players' merge, once
# the game seats have moved: an app keeping rows of those seats (the statistics' packed seat
# lines) moves only those games', which the game seats can no longer tell from keep's own.
game_seats_merged = Signal()
