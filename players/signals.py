"""Signals about claims on players' names, for apps that tell people about them."""

from django.dispatch import Signal

# Sent when an account asks to claim a name that has history; kwargs: claim (the request,
# with .user, .player and .pk).
claim_requested = Signal()

# Sent when a claim request is approved or refused; kwargs: claim, approved (bool),
# decided_by (the user who decided).
claim_decided = Signal()
