"""Signals about claims on players' names, for apps that tell people about them."""

from django.dispatch import Signal

# Sent when an account asks to claim a name that has history; kwargs: claim (the request,
# with .user, .player and .pk).
claim_requested = Signal()

# Sent when a claim request is approved or refused; kwargs: claim, approved (bool),
# decided_by (the user who decided).
claim_decided = Signal()

# Sent inside the transaction merging duplicate players into one (players.merge); kwargs:
# keep (the Player kept) and duplicates (the Players about to be deleted). Each app moves its
# own rows of the duplicates to `keep`, or raises ValidationError to refuse the merge (then
# nothing changes). A receiver moving game seats returns how many it moved.
players_merging = Signal()

# Sent once those rows have moved and the duplicates are gone; kwargs: keep. Apps deriving
# figures from the moved rows (ratings) bring them up to date.
players_merged = Signal()
