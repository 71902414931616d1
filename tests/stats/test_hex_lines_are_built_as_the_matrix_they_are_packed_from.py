"""A Deep Vents game's hex lines are counted straight into the matrix they are packed from
(issue 25, CPU per verified log): on real games it must equal the lines counted the plain
way, a row of counters per seat and hex type, as they were built before."""

from collections import defaultdict

import pytest

from engines import get_game, replay
from engines.core.simulate import simulate
from stats.models import HEX_LINE_COUNTERS
from stats.services import hex_packing
from stats.services.game_lines import (
    EARLY_TURNS,
    GAMES_AT_ONCE,
    LATE_TURNS,
    deep_vents_hex_lines,
    deep_vents_hex_lines_of,
)


def counted_row_by_row(facts):
    """The lines as (seat, hex type, *whole counts of HEX_LINE_COUNTERS), in that order,
    from every fact (the detail facts too: a grow each)."""
    counters = defaultdict(lambda: dict.fromkeys(HEX_LINE_COUNTERS, 0))
    turns, eliminated = defaultdict(list), set()
    for fact in facts:
        kind = fact["type"]
        if kind == "grow":
            line = counters[(fact["seat"], fact["hex"])]
            line["grows"] += 1
            line["grow_archaea"] += fact["archaea"]
        elif kind == "take":
            for offered in fact["offered"]:
                counters[(fact["seat"], offered)]["offered"] += 1
            key = (fact["seat"], fact["hex"])
            line = counters[key]
            line["taken"] += 1
            line["position"] += fact["position"]
            line["paid"] += fact["paid"]
            line["found"] += fact["archaea"]
            if 1 <= fact["position"] <= 6:
                line[f"taken_p{fact['position']}"] += 1
            if 1 <= fact["turn"] <= 8:
                line[f"taken_t{fact['turn']}"] += 1
            turns[key].append(fact["turn"])
        elif kind == "trigger":
            line = counters[(fact["seat"], fact["hex"])]
            line["triggers"] += 1
            line["trigger_archaea"] += fact.get("collected", 0)
        elif kind == "attack" and fact.get("hex"):
            line = counters[(fact["attacker"], fact["hex"])]
            line["attacks"] += 1
            line["damage"] += fact["damage"]
        elif kind == "decimate":
            counters[(fact["seat"], fact["hex"])]["decimated"] += 1
        elif kind == "eliminated":
            eliminated.add(fact["seat"])
    rows = []
    for (seat, hex_id), line in sorted(counters.items()):
        owned = turns.get((seat, hex_id))
        if owned:
            line["owned"] = 1
            line["early"] = int(not EARLY_TURNS.isdisjoint(owned))
            line["late"] = int(not LATE_TURNS.isdisjoint(owned))
            if seat not in eliminated:
                line["survived"] = max(0, line["taken"] - line["decimated"])
        elif line["offered"]:
            line["passed"] = 1
        rows.append((seat, hex_id, *(line[name] for name in HEX_LINE_COUNTERS)))
    return rows


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_matrix_equals_the_lines_counted_row_by_row_on_real_games(players):
    game = get_game("deep-vents")
    eliminations = 0
    for ruleset in game.rulesets().values():
        for log in simulate(game, ruleset, players, 8, f"hex-matrix-{ruleset.name}"):
            facts = replay(log, collect_facts=True, detail_facts=False).facts
            every_fact = replay(log, collect_facts=True).facts
            eliminations += any(fact["type"] == "eliminated" for fact in facts)
            matrix = deep_vents_hex_lines(facts)

            assert matrix.rows() == counted_row_by_row(every_fact)
            assert matrix.counts.shape == (len(matrix.seats), len(HEX_LINE_COUNTERS))
    assert players == 2 or eliminations  # some games show what survives an elimination


def test_the_matrix_packs_and_unpacks_to_the_same_lines():
    game = get_game("deep-vents")
    (log,) = simulate(game, game.ruleset(None), 4, 1, "hex-matrix-pack")
    matrix = deep_vents_hex_lines(replay(log, collect_facts=True).facts)

    assert hex_packing.unpack(hex_packing.pack_matrix(*matrix)) == matrix.rows()
    assert hex_packing.pack_matrix(*matrix) == hex_packing.pack(matrix.rows())


def test_a_game_without_hex_facts_has_no_lines():
    matrix = deep_vents_hex_lines([{"type": "turn-order", "winning_bid": 2}])

    assert (matrix.seats, matrix.hexes, matrix.counts.shape) == (
        b"",
        [],
        (0, len(HEX_LINE_COUNTERS)),
    )


def test_games_counted_together_give_each_games_lines_as_counted_alone():
    game = get_game("deep-vents")
    logs = simulate(game, game.ruleset(None), 4, GAMES_AT_ONCE, "hex-matrix-together")
    facts = [replay(log, collect_facts=True).facts for log in logs]
    # Counted together after those: a seat out of the game before it took or was offered
    # anything, its number past every seat with a line, must not name a seat of the games
    # after it.
    take = {"type": "take", "seat": 0, "turn": 1, "hex": "x", "position": 1, "paid": 0}
    facts += [
        [{**take, "archaea": 0, "offered": ["x"]}, {"type": "eliminated", "seat": 3}],
        *([{**take, "archaea": 0, "offered": ["x"]}] for _ in range(3)),
    ]

    together = deep_vents_hex_lines_of(facts)

    assert [matrix.rows() for matrix in together] == [
        deep_vents_hex_lines(game_facts).rows() for game_facts in facts
    ]
    assert [matrix.rows() for matrix in together] == [counted_row_by_row(f) for f in facts]
