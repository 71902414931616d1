"""The columns of the statistics tables: each one's heading and definition, shown on hover
(the heading's title) and in the legend below the table, from this one list."""

from __future__ import annotations

from typing import NamedTuple

from stats.services.intervals import PRIOR_GAMES


class Column(NamedTuple):
    key: str  # the server's sort key (?sort=key), where the server sorts the table
    label: str
    definition: str
    first: str = ""  # "ascending" where lowest first is the natural reading


SHRUNK = (
    f"shrunk towards par as if {PRIOR_GAMES} more games had been played at par, "
    "with its 95% interval"
)
INTERVAL = "with its 95% Wilson interval"

HEX_COLUMNS = (
    Column("name", "Hex", "The hex type; its page has the details and charts", "ascending"),
    Column("offered", "Offered", "Times it was in the row when a player chose a hex"),
    Column("taken", "Taken", "Times a player took it"),
    Column("take_rate", "Take rate", f"Taken / offered, {INTERVAL}"),
    Column(
        "position",
        "Avg position",
        "Average row position it was taken from (1 = free, higher costs more)",
        "ascending",
    ),
    Column("paid", "Avg paid", "Average archaea paid for it"),
    Column("found", "Avg found", "Average archaea lying on it when it was taken"),
    Column("owned", "Owned WR", f"Win rate / par of players who owned it, {SHRUNK}"),
    Column(
        "passed",
        "Passed WR",
        f"Win rate / par of players offered it who never took it that game, {SHRUNK}",
    ),
    Column(
        "improvement",
        "Improve\N{SOFT HYPHEN}ment",
        "Owned WR minus Passed WR: what drafting it is worth; the interval combines theirs",
    ),
    Column("early", "Early (1-3)", f"Win rate / par when taken on turns 1 to 3, {SHRUNK}"),
    Column("late", "Late (6-8)", f"Win rate / par when taken on turns 6 to 8, {SHRUNK}"),
    Column(
        "trigger_share",
        "Trigger share",
        f"Share of its activations that were triggers rather than grows, {INTERVAL}",
    ),
    Column("per_activation", "Archaea / activation", "Archaea gained per grow or trigger"),
    Column("attacks", "Attacks", "Attacks it made"),
    Column("damage", "Damage", "Damage its attacks dealt"),
    Column("decimated", "Deci\N{SOFT HYPHEN}mated", "Times it was decimated"),
    Column(
        "survival",
        "Survival",
        "Share of the copies taken that were never decimated (copies of eliminated players "
        f"count as lost), {INTERVAL}",
    ),
    Column(
        "sample",
        "Sample",
        "Games in which it was owned or passed over: what its win rates rest on",
    ),
)

STRATEGY_COLUMNS = (
    Column("label", "Strategy", "The bot that played the seat, or people (no bot named)"),
    Column("games", "Games", "Seats played by this strategy: the sample"),
    Column("win_rate", "Win rate", "Share of its seats that won, 95% Wilson interval"),
    Column(
        "relative",
        "Win rate / par",
        f"Win rate divided by par (1/n at an n-player table; 1.00 is average), {SHRUNK}",
    ),
    Column("score", "Average score", "Mean final score, 95% normal interval"),
    Column("rank", "Average rank", "Mean finishing place (1 = first)", "ascending"),
)
