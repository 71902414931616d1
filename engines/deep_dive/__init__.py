"""Deep Dive: pearl hunting with a colour die and a shark die (2-4 players).

`game.DeepDive` is the entry point; `edition` loads the board and pool numbers
(DD-1) from `editions.json`; `state` holds the rules; `events` the log events and
their schema; `bots` the strategies.
"""
