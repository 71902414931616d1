"""`python -m engines simulate|verify|schema` for Deep Sea Adventure and Boost."""

import json

import pytest

from engines.cli import main
from engines.registry import get_game


@pytest.mark.parametrize("game_id", ["deep-sea-adventure", "deep-sea-adventure-boost"])
def test_simulated_games_are_written_as_jsonl_and_verify(tmp_path, capsys, game_id):
    out = tmp_path / "games.jsonl"
    args = ["simulate", game_id, "--players", "4", "--games", "5", "--seed", "1"]
    assert main([*args, "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == 5
    assert all(json.loads(line)["game"] == game_id for line in lines)
    assert main(["verify", str(out)]) == 0
    assert capsys.readouterr().out.count(": ok scores") == 5


def test_the_same_seed_gives_the_same_games(tmp_path):
    paths = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    for path in paths:
        main(["simulate", "deep-sea-adventure", "--games", "3", "--seed", "7", "--out", str(path)])
    assert paths[0].read_text() == paths[1].read_text()


def test_a_tampered_log_fails_verify_with_its_event_index(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    main(["simulate", "deep-sea-adventure", "--players", "3", "--seed", "2", "--out", str(out)])
    log = json.loads(out.read_text())
    log["events"][0]["dice"] = [1, 4]
    out.write_text(json.dumps(log) + "\n")
    assert main(["verify", "--json", str(out)]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["error"]["index"] == 0
    assert record["error"]["rule"] == "DSA-1"


def test_simulating_with_named_strategies_and_options(tmp_path, capsys):
    out = tmp_path / "boost.jsonl"
    args = ["simulate", "deep-sea-adventure-boost", "--players", "2", "--games", "2"]
    args += ["--strategies", "always-boost,air-aware", "--options", '{"choose_two": false}']
    assert main([*args, "--out", str(out)]) == 0
    log = json.loads(out.read_text().splitlines()[0])
    assert log["ruleset"]["options"]["choose_two"] is False
    assert not any(event["type"] == "choose" for event in log["events"])


def test_the_expansion_dice_are_refused_on_the_command_line(capsys):
    args = ["simulate", "deep-sea-adventure-boost", "--options", '{"expansion_dice": true}']
    assert main(args) == 2
    assert "[B-4]" in capsys.readouterr().err


@pytest.mark.parametrize("game_id", ["deep-sea-adventure", "deep-sea-adventure-boost"])
def test_schema_prints_the_games_log_schema(capsys, game_id):
    assert main(["schema", game_id]) == 0
    assert json.loads(capsys.readouterr().out) == get_game(game_id).schema()
