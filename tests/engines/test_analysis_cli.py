"""`python -m engines analyse LOG`: each decision's cost, offline."""

import json
import random
import re

import pytest

from engines.cli import main
from engines.core.simulate import simulate_game
from engines.registry import get_game


def write_log(tmp_path, **changes):
    game = get_game("deep-dive")
    log = simulate_game(game, game.ruleset({}), ["risk-aware", "surface-after-2"], random.Random(1))
    log.update(changes)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    return path, log


def test_analyse_prints_one_json_object_per_decision(tmp_path, capsys):
    path, log = write_log(tmp_path)
    assert main(["analyse", str(path), "--json", "--max-playouts", "8", "--min-playouts", "4"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines and all(d["seat"] in (0, 1) for d in lines)
    for decision in lines:
        assert log["events"][decision["index"]]["type"] in ("surface", "stay")
        assert decision["cost"] == pytest.approx(
            max(0, decision["best_win"] - decision["win"]), abs=1e-3
        )


def test_analyse_prints_a_line_per_decision_and_a_summary(tmp_path, capsys):
    path, _ = write_log(tmp_path)
    assert main(["analyse", str(path), "--max-playouts", "8", "--min-playouts", "4"]) == 0
    out = capsys.readouterr()
    assert "surfacing): played" in out.out and "decisions, engine" in out.err


def test_analyse_names_the_player_seats_from_one_and_moves_in_the_engines_words(tmp_path, capsys):
    path, log = write_log(tmp_path)
    assert main(["analyse", str(path), "--max-playouts", "8", "--min-playouts", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    first_decider = next(e["seat"] for e in log["events"] if e["type"] in ("surface", "stay"))
    name = log["players"][first_decider]["name"]
    assert lines[0].startswith("event ") and f"({name}, seat {first_decider + 1}, " in lines[0]
    # Deep Dive's own words for its two decisions, never the raw event ("stay", "surface").
    words = "(stay in the water|surface and open the shells)"
    assert all(re.search(f"played {words} .*, best {words} ", line) for line in lines)


def test_analyse_refuses_a_log_that_does_not_verify_naming_the_problem(tmp_path, capsys):
    path, _ = write_log(tmp_path, result={"scores": [99, 0], "winners": [0]})
    assert main(["analyse", str(path)]) == 2
    assert "claimed scores [99, 0]" in capsys.readouterr().err


def test_analyse_builds_the_starting_state_once_to_verify_and_describe(tmp_path, monkeypatch):
    import engines.analysis.cli as cli
    import engines.core.replay as replay

    path, _ = write_log(tmp_path)
    built = []

    def counting_start(log, real=replay.start):
        built.append(log["game"])
        return real(log)

    monkeypatch.setattr(replay, "start", counting_start)
    monkeypatch.setattr(cli, "start", counting_start)
    monkeypatch.setattr(cli, "analyse_log", lambda *args, **kwargs: [])  # its own replay aside
    assert main(["analyse", str(path)]) == 0
    assert built == ["deep-dive"]
