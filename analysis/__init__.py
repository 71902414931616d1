"""Game analysis: Monte Carlo evaluation of every decision of a verified game (issue 15)."""
