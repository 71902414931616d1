"""Statistics storage: per-game lines and the cubes summed from them.

A *line* is one game's contribution, derived once from the game's facts when it is verified
(per seat, per seat and hex, per seat and round). A *cube* sums lines by the filter
dimensions (`Slice`) plus its own keys, so a page reads a few hundred cube rows however many
games there are. Every cube counter has the line field of the same name, or is derived from
the lines (a pair of seats is two seat lines of one game; a hex line's win-weighted twins
come from its seat line); `n` counts the lines summed. A game's lines are packed into a
value or two (SeatLines, HexLines), which the statistics code sums (stats.services.aggregate).

Keys are never NULL (unique constraints treat NULLs as distinct): 0 means "no turn order",
-1 "no bidding".
"""

from django.conf import settings
from django.db import models
from django.utils import dateformat, timezone

from engines.registry import title_of

NO_TURN_ORDER = 0
NO_BID = -1


class Slice(models.Model):
    """The filter dimensions every cube is keyed by."""

    game_type = models.CharField(max_length=40)
    source = models.CharField(max_length=20)
    player_count = models.PositiveSmallIntegerField()
    ruleset = models.CharField(max_length=40)
    month = models.DateField(help_text="First day of the month the game was played")
    band = models.CharField(max_length=20, help_text="Rating band of the seat")
    strategy = models.CharField(max_length=100)

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return (
            f"{type(self).__name__} {self.game_type} {self.source} {self.player_count}p "
            f"{self.ruleset} {self.month:%Y-%m} {self.band} {self.strategy or '-'}"
        )


SLICE_FIELDS = ("game_type", "source", "player_count", "ruleset", "month", "band", "strategy")


class SeatLines(models.Model):
    """One verified game's seat lines (a seat each) and round lines (a seat's dive or round,
    Deep Sea Adventure and Deep Dive), packed into one value (stats.services.seat_packing).
    Four seat lines cost some 850 bytes a game as rows with their index; packed, some 100
    (issue 25). The statistics code sums them in Python (stats.services.aggregate).

    A round line's `moment` is when the diver chose to head home: the turn it turned back
    (DSA-4) or the pass it surfaced on (DD-3); 0 when it never chose to."""

    game = models.OneToOneField(
        "games.Game", models.CASCADE, primary_key=True, related_name="stat_seats"
    )
    # A column rather than packed: a copy of the game in another month (the load
    # benchmark's) changes it without unpacking.
    month = models.DateField(help_text="First day of the month the game was played")
    packed = models.BinaryField()

    def __str__(self) -> str:
        return f"Seat lines of game {self.game_id}"


HEX_COUNTERS = (
    "offered",
    "taken",
    "position",
    "paid",
    "found",
    "owned",
    "owned_wins",
    "owned_expected",
    "passed",
    "passed_wins",
    "passed_expected",
    "early",
    "early_wins",
    "early_expected",
    "late",
    "late_wins",
    "late_expected",
    "grows",
    "grow_archaea",
    "triggers",
    "trigger_archaea",
    "attacks",
    "damage",
    "decimated",
    "survived",
    *(f"taken_p{p}" for p in range(1, 7)),
    *(f"taken_t{t}" for t in range(1, 9)),
)


# A hex line's win-weighted and par-weighted twins are its flag times its seat line's wins or
# expected: the sums read them from the seat line (stats.services.aggregate.add_hexes)
# instead of storing them on every line.
HEX_DERIVED = {
    f"{flag}{suffix}": (flag, seat_field)
    for flag in ("owned", "passed", "early", "late")
    for suffix, seat_field in (("_wins", "wins"), ("_expected", "expected"))
}
# The par-weighted twins: whole numbers, the flag times its seat's par in PAR_SCALE.
HEX_PAR = tuple(twin for twin, (_, seat_field) in HEX_DERIVED.items() if seat_field == "expected")


# What a seat's par (1 / its table size) is counted in where a cube's tables are summed in
# more than one way: PAR_SCALE / table size is a whole number at every table size a game
# allows (2 to 6), so sums are exact whatever order a fold or a rebuild adds them in, and a
# table summed over some keys holds the cube's figures to the last digit. As floats (1/3 a
# seat) two folds of the same seats differed in the 16th digit.
PAR_SCALE = 60


def par_field() -> models.BigIntegerField:
    """A cube's `expected` (a hex cube's par-weighted twins too, HEX_PAR): its seats' par
    summed, times PAR_SCALE (readers divide)."""
    return models.BigIntegerField(
        default=0, help_text="The seats' par summed, times PAR_SCALE: a whole number"
    )


# Declared from the lists above so lines and cubes cannot drift apart.
HexCounters = type(
    "HexCounters",
    (models.Model,),
    {
        "__module__": __name__,
        "Meta": type("Meta", (), {"abstract": True}),
        **{
            name: par_field() if name in HEX_PAR else models.FloatField(default=0)
            for name in HEX_COUNTERS
        },
    },
)
# What a hex line stores: whole counts, small within one game.
HEX_LINE_COUNTERS = tuple(name for name in HEX_COUNTERS if name not in HEX_DERIVED)


class HexLines(models.Model):
    """One Deep Vents game's per-seat, per-hex-type lines, packed into one value
    (stats.services.hex_packing): whole counts of HEX_LINE_COUNTERS, no win-weighted twins
    (HEX_DERIVED: the sums take them from the seat lines). Some eighty lines a game cost
    8.7 KB as rows with their indexes; packed, some 400 bytes (issue 25)."""

    game = models.OneToOneField(
        "games.Game", models.CASCADE, primary_key=True, related_name="stat_hexes"
    )
    packed = models.BinaryField()

    def __str__(self) -> str:
        return f"Hex lines of game {self.game_id}"


# --- cubes --------------------------------------------------------------------------------


class Cube(Slice):
    n = models.BigIntegerField(default=0, help_text="Lines summed")

    class Meta:
        abstract = True


def cube_constraint(name: str, *keys: str) -> models.UniqueConstraint:
    return models.UniqueConstraint(fields=[*SLICE_FIELDS, *keys], name=name)


def month_index(cube: str) -> models.Index:
    """For pages with a date range: the unique key has the month fifth, so without this a
    range reads every row of the game type. Its columns never change, so a fold's update of
    the counters stays a heap-only one."""
    return models.Index(fields=["game_type", "month"], name=f"stats_{cube}_month")


class StrategyCube(Cube):
    wins = models.FloatField(default=0)
    expected = par_field()
    score = models.FloatField(default=0)
    score_sq = models.FloatField(default=0)
    rank = models.FloatField(default=0)

    class Meta:
        constraints = [cube_constraint("stats_strategycube_key")]
        indexes = [month_index("strategycube")]


class ScoreCube(Cube):
    score_bin = models.IntegerField()

    class Meta:
        constraints = [cube_constraint("stats_scorecube_key", "score_bin")]
        indexes = [month_index("scorecube")]


class SeatCube(Cube):
    seat = models.PositiveSmallIntegerField()
    turn_order = models.PositiveSmallIntegerField()
    wins = models.FloatField(default=0)
    expected = par_field()
    score = models.FloatField(default=0)

    class Meta:
        constraints = [cube_constraint("stats_seatcube_key", "seat", "turn_order")]
        indexes = [month_index("seatcube")]


class BidCube(Cube):
    turn_order = models.PositiveSmallIntegerField()
    winning_bid = models.SmallIntegerField()
    wins = models.FloatField(default=0)
    expected = par_field()

    class Meta:
        constraints = [cube_constraint("stats_bidcube_key", "turn_order", "winning_bid")]
        indexes = [month_index("bidcube")]


class PairCube(Cube):
    opponent = models.CharField(max_length=100)
    ahead = models.FloatField(default=0)
    behind = models.FloatField(default=0)

    class Meta:
        constraints = [cube_constraint("stats_paircube_key", "opponent")]
        indexes = [month_index("paircube")]


class HexCube(Cube, HexCounters):
    hex = models.CharField(max_length=40)

    class Meta:
        constraints = [cube_constraint("stats_hexcube_key", "hex")]
        indexes = [month_index("hexcube")]


class RoundCube(Cube):
    round = models.PositiveSmallIntegerField()
    moment = models.PositiveSmallIntegerField()
    points = models.FloatField(default=0)
    drowned = models.FloatField(default=0)
    depth = models.FloatField(default=0)

    class Meta:
        constraints = [cube_constraint("stats_roundcube_key", "round", "moment")]
        indexes = [month_index("roundcube")]


class PlayerHexTally(models.Model):
    """How often a player took each hex type, over the counted games' hex lines: what the
    player's page ranks as favourite hexes. Kept by the fold as the cubes are (appended as
    PlayerHexTallyDelta rows, folded, rebuilt from the lines), from the seat lines' players
    (stats.services.seat_packing), so neither the fold nor a rebuild reads the game seats. A
    players' merge moves the duplicates' tally and packed ids to the player kept
    (stats.receivers).

    One row a player, its hex types in one value: a row a player and hex type cost some 165
    bytes with its indexes, some 250 bytes a game where a few hundred players play a few
    thousand games (benchmarks/storage_per_game.py); one a player, some 30."""

    # No key checked by the database: the rows are derived (refilled from the lines), and a
    # rebuild's TRUNCATE is refused in a transaction with a deferred check still pending.
    # Django still deletes a deleted player's row.
    player = models.OneToOneField(
        "players.Player", models.CASCADE, primary_key=True, related_name="+", db_constraint=False
    )
    taken = models.JSONField(default=dict, help_text="Hex type -> times taken (none at 0)")

    def __str__(self) -> str:
        return f"Hexes taken by player {self.player_id}"


class PlayerHexTallyDelta(models.Model):
    """What one verifying transaction adds to PlayerHexTally (negative for a retracted game),
    as the cubes' deltas are: only ever inserted and folded (stats.services.aggregate
    .fold_player_hexes). The player is a plain id (no key to check per row); `n` counts the
    lines summed (a seat's hex type taken at least once in a game)."""

    player = models.BigIntegerField()
    hex = models.CharField(max_length=40)
    n = models.BigIntegerField(default=0)
    taken = models.FloatField(default=0)

    def __str__(self) -> str:
        return f"{self.hex} taken {self.taken:+g} times by player {self.player}"


# --- rollups --------------------------------------------------------------------------------


def rollup_of(
    cube: type[models.Model],
    summed_over: tuple[str, ...] = ("month",),
    suffix: str = "Rollup",
    leading: tuple[str, ...] = (),
) -> type[models.Model]:
    """The cube summed over some of its keys, with the same keys otherwise.

    Over the month (`<Cube>Rollup`): pages without a date filter read it, a row per key
    instead of one per key and month, so their sums stay small however many months of games
    there are. With a date range, pages read the smallest table by month that keeps every
    key they filter on (stats.filters.StatsFilter.view, stats.models.BY_MONTH). `leading`:
    keys put first in the unique key, so that a date range reads a run of its index."""
    fields = {
        field.name: field.clone()
        for field in cube._meta.concrete_fields
        if field.name not in ("id", *summed_over)
    }
    (key,) = cube._meta.constraints
    kept = [f for f in key.fields if f not in summed_over]
    name = f"{cube.__name__}{suffix}"
    meta = type(
        "Meta",
        (),
        {
            "constraints": [
                models.UniqueConstraint(
                    fields=[*leading, *(f for f in kept if f not in leading)],
                    name=f"stats_{name.lower()}_key",
                )
            ]
        },
    )
    return type(name, (models.Model,), {"__module__": __name__, "Meta": meta, **fields})


StrategyCubeRollup = rollup_of(StrategyCube)
ScoreCubeRollup = rollup_of(ScoreCube)
SeatCubeRollup = rollup_of(SeatCube)
BidCubeRollup = rollup_of(BidCube)
PairCubeRollup = rollup_of(PairCube)
HexCubeRollup = rollup_of(HexCube)
RoundCubeRollup = rollup_of(RoundCube)
ROLLUPS = {
    StrategyCube: StrategyCubeRollup,
    ScoreCube: ScoreCubeRollup,
    SeatCube: SeatCubeRollup,
    BidCube: BidCubeRollup,
    PairCube: PairCubeRollup,
    HexCube: HexCubeRollup,
    RoundCube: RoundCubeRollup,
}
# Only where a page reads a cube by month without its strategy: the per-hex page (at 1M
# games the hex cube's rows in a year's range are mostly strategies: 15,000 against 3,800).
HexCubeByMonth = rollup_of(HexCube, ("strategy",), "ByMonth")


def by_month_and_strategy(cube: type[models.Model], *kept: str) -> type[models.Model]:
    """The cube summed over source, table size, ruleset and band, but for the keys `kept`
    (the page groups by them): a row per month, strategy and the cube's own keys. The
    per-strategy page with a date range and no other filter reads it: at 1M games a year of
    the score cube is 27,000 rows, most of them sources, sizes, rulesets and bands."""
    summed_over = tuple(
        name for name in ("source", "player_count", "ruleset", "band") if name not in kept
    )
    return rollup_of(cube, summed_over, "ByMonthAndStrategy", leading=("game_type", "month"))


StrategyCubeByMonthAndStrategy = by_month_and_strategy(StrategyCube)
ScoreCubeByMonthAndStrategy = by_month_and_strategy(ScoreCube)
SeatCubeByMonthAndStrategy = by_month_and_strategy(SeatCube)
# The fair-bid chart groups by table size.
BidCubeByMonthAndStrategy = by_month_and_strategy(BidCube, "player_count")
PairCubeByMonthAndStrategy = by_month_and_strategy(PairCube)
RoundCubeByMonthAndStrategy = by_month_and_strategy(RoundCube)


def by_month_source_and_band(cube: type[models.Model]) -> type[models.Model]:
    """The cube summed over table size and ruleset: a row per month, source, band, strategy
    and the cube's own keys. The per-strategy page with a date range and a source or a band
    (and no table size or ruleset) reads it: at 100k games a year of the score cube is
    29,000 rows, a band's 10,000 of them, which the query read and summed in 20 ms; here a
    year is 9,600 rows, a band's about 3,000 (issue 25)."""
    return rollup_of(
        cube, ("player_count", "ruleset"), "ByMonthSourceAndBand", leading=("game_type", "month")
    )


# Only for the score cube, the one whose sums took most of such a page's time: each such
# table costs bytes a game (benchmarks/storage_per_game.py).
ScoreCubeByMonthSourceAndBand = by_month_source_and_band(ScoreCube)
# The hex cube summed over strategy too: the per-hex page with a date range and no filter
# but a source or a band reads it. At 100k games a year of HexCubeByMonth is 5,256 rows of
# forty sums, summed in 30-45 ms; here 1,200, a band's or a source's fewer (issue 25).
HexCubeByMonthSourceAndBand = rollup_of(
    HexCube,
    ("player_count", "ruleset", "strategy"),
    "ByMonthSourceAndBand",
    leading=("game_type", "month"),
)


def by_month_source_size_and_band(cube: type[models.Model]) -> type[models.Model]:
    """The cube summed over ruleset and strategy: a row per month, source, table size, band
    and the cube's own keys. The per-strategy page's fair-bid chart groups by neither
    strategy nor ruleset, so with a date range and any of source, table size and band (no
    strategy, no ruleset) it reads this instead of the cube: at 100k games a year of the bid
    cube under a source is 11,700 rows, 1,200 of them kept (issue 25)."""
    return rollup_of(
        cube, ("ruleset", "strategy"), "ByMonthSourceSizeAndBand", leading=("game_type", "month")
    )


# Only tables whose sums the pages draw are whole numbers, or as good as (wins: ties are
# rare in a bid's games), so that a page is the same to the last digit as the cube's sums
# (the bids' par is in PAR_SCALE; the head-to-head's ahead and behind are counts).
BidCubeByMonthSourceSizeAndBand = by_month_source_size_and_band(BidCube)
# The seat chart groups by neither: with a date range and a source, table size or band it
# reads this, a few rows a month, instead of the cube. Its par sums are whole numbers
# (PAR_SCALE), so they are the cube's to the last digit.
SeatCubeByMonthSourceSizeAndBand = by_month_source_size_and_band(SeatCube)
# The head-to-head table groups by strategy and opponent, so its table keeps the strategy.
PairCubeByMonthSourceAndBand = by_month_source_and_band(PairCube)
# Per cube, its tables by month smaller than the cube, each summed over some of its keys:
# kept equal to the cube by the folder and the rebuild, read by pages with a date range
# (the first that keeps every key filtered on: stats.filters.StatsFilter.view).
BY_MONTH: dict[type[models.Model], tuple[type[models.Model], ...]] = {
    StrategyCube: (StrategyCubeByMonthAndStrategy,),
    ScoreCube: (ScoreCubeByMonthAndStrategy, ScoreCubeByMonthSourceAndBand),
    SeatCube: (SeatCubeByMonthAndStrategy, SeatCubeByMonthSourceSizeAndBand),
    BidCube: (BidCubeByMonthAndStrategy, BidCubeByMonthSourceSizeAndBand),
    PairCube: (PairCubeByMonthAndStrategy, PairCubeByMonthSourceAndBand),
    HexCube: (HexCubeByMonthSourceAndBand, HexCubeByMonth),
    RoundCube: (RoundCubeByMonthAndStrategy,),
}


# --- deltas and the live views ------------------------------------------------------------
#
# Verification never touches a cube row (stats/services/aggregate.py says why): it appends
# what its games add to each cube, or take away, as rows of the cube's delta table, and one
# folder moves those into the cube and its rollup. Pages read a live view (stats/filters.py),
# the cube's rows and the deltas not folded yet in one UNION ALL, so they are exact whether
# or not the folder has run. The views are created by migrations (0004): a migration that
# changes a cube's columns must create its views again.


def delta_of(cube: type[models.Model]) -> type[models.Model]:
    """Rows added to the cube by one verifying transaction (counters negative for a
    retracted game): the cube's columns, no unique key, only ever inserted and folded."""
    fields = {
        field.name: field.clone() for field in cube._meta.concrete_fields if field.name != "id"
    }
    return type(f"{cube.__name__}Delta", (models.Model,), {"__module__": __name__, **fields})


def live_of(table: type[models.Model]) -> type[models.Model]:
    """A read-only view of a cube or rollup summed with the deltas not folded yet; read
    only by summing (a key may have several rows). Ids are the table's, the deltas' negated."""
    fields = {
        field.name: field.clone() for field in table._meta.concrete_fields if field.name != "id"
    }
    name = f"{table.__name__}Live"
    meta = type("Meta", (), {"managed": False, "db_table": f"stats_{name.lower()}"})
    return type(
        name,
        (models.Model,),
        {
            "__module__": __name__,
            "Meta": meta,
            "id": models.BigIntegerField(primary_key=True),
            **fields,
        },
    )


StrategyCubeDelta = delta_of(StrategyCube)
ScoreCubeDelta = delta_of(ScoreCube)
SeatCubeDelta = delta_of(SeatCube)
BidCubeDelta = delta_of(BidCube)
PairCubeDelta = delta_of(PairCube)
HexCubeDelta = delta_of(HexCube)
RoundCubeDelta = delta_of(RoundCube)
DELTAS = {
    StrategyCube: StrategyCubeDelta,
    ScoreCube: ScoreCubeDelta,
    SeatCube: SeatCubeDelta,
    BidCube: BidCubeDelta,
    PairCube: PairCubeDelta,
    HexCube: HexCubeDelta,
    RoundCube: RoundCubeDelta,
    PlayerHexTally: PlayerHexTallyDelta,
}

StrategyCubeLive = live_of(StrategyCube)
ScoreCubeLive = live_of(ScoreCube)
SeatCubeLive = live_of(SeatCube)
BidCubeLive = live_of(BidCube)
PairCubeLive = live_of(PairCube)
HexCubeLive = live_of(HexCube)
RoundCubeLive = live_of(RoundCube)
StrategyCubeRollupLive = live_of(StrategyCubeRollup)
ScoreCubeRollupLive = live_of(ScoreCubeRollup)
SeatCubeRollupLive = live_of(SeatCubeRollup)
BidCubeRollupLive = live_of(BidCubeRollup)
PairCubeRollupLive = live_of(PairCubeRollup)
HexCubeRollupLive = live_of(HexCubeRollup)
RoundCubeRollupLive = live_of(RoundCubeRollup)
HexCubeByMonthLive = live_of(HexCubeByMonth)
StrategyCubeByMonthAndStrategyLive = live_of(StrategyCubeByMonthAndStrategy)
ScoreCubeByMonthAndStrategyLive = live_of(ScoreCubeByMonthAndStrategy)
SeatCubeByMonthAndStrategyLive = live_of(SeatCubeByMonthAndStrategy)
BidCubeByMonthAndStrategyLive = live_of(BidCubeByMonthAndStrategy)
PairCubeByMonthAndStrategyLive = live_of(PairCubeByMonthAndStrategy)
RoundCubeByMonthAndStrategyLive = live_of(RoundCubeByMonthAndStrategy)
ScoreCubeByMonthSourceAndBandLive = live_of(ScoreCubeByMonthSourceAndBand)
HexCubeByMonthSourceAndBandLive = live_of(HexCubeByMonthSourceAndBand)
BidCubeByMonthSourceSizeAndBandLive = live_of(BidCubeByMonthSourceSizeAndBand)
SeatCubeByMonthSourceSizeAndBandLive = live_of(SeatCubeByMonthSourceSizeAndBand)
PairCubeByMonthSourceAndBandLive = live_of(PairCubeByMonthSourceAndBand)
# cube -> (its live view, its rollup's live view)
LIVE = {
    StrategyCube: (StrategyCubeLive, StrategyCubeRollupLive),
    ScoreCube: (ScoreCubeLive, ScoreCubeRollupLive),
    SeatCube: (SeatCubeLive, SeatCubeRollupLive),
    BidCube: (BidCubeLive, BidCubeRollupLive),
    PairCube: (PairCubeLive, PairCubeRollupLive),
    HexCube: (HexCubeLive, HexCubeRollupLive),
    RoundCube: (RoundCubeLive, RoundCubeRollupLive),
}
# cube -> the live views of its tables by month (BY_MONTH), in the same order
BY_MONTH_LIVE = {
    StrategyCube: (StrategyCubeByMonthAndStrategyLive,),
    ScoreCube: (ScoreCubeByMonthAndStrategyLive, ScoreCubeByMonthSourceAndBandLive),
    SeatCube: (SeatCubeByMonthAndStrategyLive, SeatCubeByMonthSourceSizeAndBandLive),
    BidCube: (BidCubeByMonthAndStrategyLive, BidCubeByMonthSourceSizeAndBandLive),
    PairCube: (PairCubeByMonthAndStrategyLive, PairCubeByMonthSourceAndBandLive),
    HexCube: (HexCubeByMonthSourceAndBandLive, HexCubeByMonthLive),
    RoundCube: (RoundCubeByMonthAndStrategyLive,),
}


# --- the simulation lab -------------------------------------------------------------------


class SimulationBatch(models.Model):
    """A run of bot games launched from the lab (or `manage.py simulate`)."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    game_type = models.CharField(max_length=40)
    ruleset = models.CharField(max_length=40)
    player_count = models.PositiveSmallIntegerField()
    # Each table's strategies in seat order; several tables when every combination was asked.
    tables = models.JSONField(help_text="List of strategy lists, played in turn")
    games = models.PositiveIntegerField()
    seed = models.CharField(max_length=64)
    chunk_size = models.PositiveIntegerField(default=200)
    # One upload per chunk: the games' logs, whose verdicts make the progress bar.
    uploads = models.ManyToManyField("games.Upload", blank=True, related_name="simulations")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    submitted = models.PositiveIntegerField(default=0, help_text="Games handed to intake")
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.games} {self.game_type} games ({self.status})"

    @property
    def name(self) -> str:
        """The batch as the lab names it, never by its id: its game, its source and when it
        was launched ("Deep Dive bot games from the lab, 6 Dec 2026, 19:30"); a batch with
        no account behind it came from the command line (`manage.py simulate`, `load_demo`)."""
        source = "the lab" if self.created_by_id else "the command line"
        return f"{title_of(self.game_type)} bot games from {source}, {self.launched}"

    @property
    def launched(self) -> str:
        """When the batch was launched, as its name says it: "6 Dec 2026, 19:30"."""
        return dateformat.format(timezone.localtime(self.created), "j M Y, H:i")


# --- the players' seats --------------------------------------------------------------------

# What PlayerSeatTally sums of a player's seats in counted games of one turn order.
SEAT_TALLY_SUMS = ("n", "wins", "ranks", "bids", "bid_total")


class PlayerSeatTally(models.Model):
    """A player's seats in counted games by their turn order (NO_TURN_ORDER: none): how
    many (`n`), won, the ranks summed, how many had a bid and the bids summed: what the
    player's page shows of its seats. Read from every seat of the busiest player, those
    figures cost the page 10-15 ms at 1M games (4,229 seats on 3,741 pages, issue 25); here
    a row a turn order. Kept by the fold as the hex tally is (PlayerSeatTallyDelta rows,
    folded), from the game seats as their game is counted or retracted, rebuilt from the
    seats of the games with seat lines (stats.services.aggregate); a players' merge moves
    the duplicates' rows to the player kept (stats.receivers). No row of zeros."""

    pk = models.CompositePrimaryKey("player", "turn_order")
    # No key checked by the database, as PlayerHexTally's (a rebuild's TRUNCATE); the
    # primary key leads with the player, so no index of its own.
    player = models.ForeignKey(
        "players.Player",
        models.CASCADE,
        related_name="+",
        db_constraint=False,
        db_index=False,
    )
    turn_order = models.PositiveSmallIntegerField()
    # 4-byte sums (a player's seats, ranks and bids are far below 2**31): the table is a
    # few rows a player, which at 5,000 games among 400 players is bytes a game (issue 25).
    n = models.IntegerField(default=0, help_text="Seats")
    wins = models.IntegerField(default=0)
    ranks = models.IntegerField(default=0, help_text="The seats' ranks summed")
    bids = models.IntegerField(default=0, help_text="Seats with a bid")
    bid_total = models.IntegerField(default=0, help_text="Their bids summed")

    def __str__(self) -> str:
        return f"{self.n} seats of player {self.player_id} at turn order {self.turn_order}"


class PlayerSeatTallyDelta(models.Model):
    """What one verifying transaction adds to PlayerSeatTally (negative for a retracted
    game): only ever inserted and folded (stats.services.aggregate.fold_player_seats). The
    player is a plain id, as PlayerHexTallyDelta's."""

    player = models.BigIntegerField()
    turn_order = models.PositiveSmallIntegerField()
    n = models.IntegerField(default=0)
    wins = models.IntegerField(default=0)
    ranks = models.IntegerField(default=0)
    bids = models.IntegerField(default=0)
    bid_total = models.IntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.n:+d} seats of player {self.player} at turn order {self.turn_order}"


# --- the score cube's bins packed by key ---------------------------------------------------


def packed_score_bins(table: type[models.Model]) -> type[models.Model]:
    """The score cube's table `table` (the cube, its rollup or a table by month) with a
    row per key but the score bin: the key's bins, each followed by its count, in one text
    of numbers separated by commas ("13,50,15,100": bin 13 counted 50 times, bin 15 100
    times), in the bins' order. The per-strategy page's score chart reads it, some forty
    times fewer rows than the table (at 1M games 4,200-5,650 rows of bins summed in 9-12 ms
    under load, issue 25), and adds the deltas not folded yet itself
    (stats.services.strategies).

    Kept by the fold on PostgreSQL only (stats.services.score_bins), repacked from the table
    for each key the fold touched (`stale` meanwhile) and rebuilt from it; SQLite's pages
    sum the table's bins. Keyed by its key alone, no index besides: a few thousand rows at
    1M games, where an id and an index of the stale rows cost bytes a game at 5,000
    (benchmarks/storage_per_game.py)."""
    fields = {
        field.name: field.clone()
        for field in table._meta.concrete_fields
        if field.name not in ("id", "n", "score_bin")
    }
    (key,) = table._meta.constraints
    return type(
        f"{table.__name__}Packed",
        (models.Model,),
        {
            "__module__": __name__,
            "pk": models.CompositePrimaryKey(*(f for f in key.fields if f != "score_bin")),
            **fields,
            "bins": models.TextField(default="", help_text="Each score bin and its count"),
            "stale": models.BooleanField(default=False, help_text="To be packed again"),
        },
    )


ScoreCubePacked = packed_score_bins(ScoreCube)
ScoreCubeRollupPacked = packed_score_bins(ScoreCubeRollup)
ScoreCubeByMonthAndStrategyPacked = packed_score_bins(ScoreCubeByMonthAndStrategy)
ScoreCubeByMonthSourceAndBandPacked = packed_score_bins(ScoreCubeByMonthSourceAndBand)
# Each table of the score cube with its bins packed by key.
PACKED_SCORE_BINS: dict[type[models.Model], type[models.Model]] = {
    ScoreCube: ScoreCubePacked,
    ScoreCubeRollup: ScoreCubeRollupPacked,
    ScoreCubeByMonthAndStrategy: ScoreCubeByMonthAndStrategyPacked,
    ScoreCubeByMonthSourceAndBand: ScoreCubeByMonthSourceAndBandPacked,
}
# The live view of a table of the score cube (StatsFilter.view) -> its bins packed.
PACKED_SCORE_BINS_OF_VIEW: dict[type[models.Model], type[models.Model]] = {
    ScoreCubeLive: ScoreCubePacked,
    ScoreCubeRollupLive: ScoreCubeRollupPacked,
    ScoreCubeByMonthAndStrategyLive: ScoreCubeByMonthAndStrategyPacked,
    ScoreCubeByMonthSourceAndBandLive: ScoreCubeByMonthSourceAndBandPacked,
}
