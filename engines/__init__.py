"""Pure-Python rules engines for the deep-sea games (no Django here).

One package per game; `engines.core` holds the log format, errors, replay and
simulation they share. `python -m engines` is the offline command line. The modules
on the verification path run compiled when their build is current (engines.compiled,
chosen here, before any of them is imported).
"""

# First (isort keeps it so): choosing the compiled modules must precede importing any.
from engines.compiled import SELECTION as ENGINES_SELECTION
from engines.core.errors import (
    IllegalEventError,
    LogError,
    MalformedLogError,
    ResultMismatchError,
    UnsupportedRulesetError,
)
from engines.core.game import Game, Outcome, Ruleset, State, Strategy
from engines.core.replay import Replay, replay, verify
from engines.registry import GAMES, get_game

__all__ = [
    "ENGINES_SELECTION",
    "GAMES",
    "Game",
    "IllegalEventError",
    "LogError",
    "MalformedLogError",
    "Outcome",
    "Replay",
    "ResultMismatchError",
    "Ruleset",
    "State",
    "Strategy",
    "UnsupportedRulesetError",
    "get_game",
    "replay",
    "verify",
]
