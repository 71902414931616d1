"""`python -m engines simulate|verify|schema` for Deep Vents: output, --json, exit codes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engines.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "engines", *args], cwd=ROOT, capture_output=True, text=True
    )


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    out = tmp_path_factory.mktemp("cli") / "games.jsonl"
    done = run_cli(
        "simulate", "deep-vents", "--players", "4", "--games", "6", "--seed", "1",
        "--out", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return out


def test_simulate_writes_one_verified_log_per_line(games):
    logs = [json.loads(line) for line in games.read_text().splitlines()]
    assert len(logs) == 6
    assert all(log["game"] == "deep-vents" and len(log["players"]) == 4 for log in logs)
    assert {log["ruleset"]["name"] for log in logs} == {"starting-bid"}  # the default


def test_verify_prints_ok_with_scores_and_exits_zero(games):
    done = run_cli("verify", str(games))
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 6
    assert all(": ok scores [" in line and "winners [" in line for line in lines)


def test_the_same_seed_writes_the_same_games(capsys):
    args = ["simulate", "deep-vents", "--players", "3", "--games", "2", "--seed", "9"]
    main(args)
    first = capsys.readouterr().out
    main(args)
    assert capsys.readouterr().out == first


def test_strategies_ruleset_and_options_are_honoured(capsys):
    main(
        [
            "simulate", "deep-vents", "--players", "2", "--games", "1", "--seed", "3",
            "--strategies", "lookahead,turtle", "--ruleset", "standard",
            "--options", '{"row_size": 5}',
        ]
    )  # fmt: skip
    log = json.loads(capsys.readouterr().out)
    assert [p["strategy"] for p in log["players"]] == ["lookahead", "turtle"]
    assert log["ruleset"] == {"name": "standard", "edition": "first", "options": {"row_size": 5}}
    assert "first_player" in log["setup"]


def test_an_invalid_log_is_reported_with_its_line_and_exit_status_one(games, tmp_path, capsys):
    lines = games.read_text().splitlines()
    bad = json.loads(lines[1])
    bad["result"]["scores"][0] += 5
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join([lines[0], json.dumps(bad), "{not json", lines[2]]) + "\n")
    assert main(["verify", str(mixed)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{mixed}:1: ok")
    assert out[1].startswith(f"{mixed}:2: invalid result.scores: claimed scores")
    assert out[2].startswith(f"{mixed}:3: invalid invalid JSON")
    assert out[3].startswith(f"{mixed}:4: ok")


def test_verify_json_gives_one_machine_readable_record_per_log(games, tmp_path, capsys):
    log = json.loads(games.read_text().splitlines()[0])
    take = next(i for i, e in enumerate(log["events"]) if e["type"] == "take")
    log["events"][take]["position"] = 9
    single = tmp_path / "bad.json"
    single.write_text(json.dumps(log))
    assert main(["verify", "--json", str(games), str(single)]) == 1
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["status"] for r in records] == ["ok"] * 6 + ["invalid"]
    error = records[-1]["error"]
    assert error["kind"] == "malformed"  # position 9 fails the JSON Schema (1-6)
    assert error["field"] == f"events.{take}.position"
    assert records[0]["scores"] == json.loads(games.read_text().splitlines()[0])["result"]["scores"]


def test_an_illegal_event_reports_index_seat_and_ruling(games, tmp_path, capsys):
    log = json.loads(games.read_text().splitlines()[0])
    take = next(i for i, e in enumerate(log["events"]) if e["type"] == "take")
    log["events"][take + 1]["hex"] = [5, 5]
    path = tmp_path / "far.json"
    path.write_text(json.dumps(log))
    assert main(["verify", "--json", str(path)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    seat = log["events"][take]["seat"]
    assert (error["kind"], error["index"], error["seat"], error["rule"]) == (
        "illegal",
        take + 1,
        seat,
        "DV-4",
    )


def test_usage_errors_exit_with_status_two(tmp_path):
    missing = run_cli("verify", str(tmp_path / "nowhere.jsonl"))
    assert missing.returncode == 2 and "error:" in missing.stderr
    too_many = run_cli("simulate", "deep-vents", "--players", "5")
    assert too_many.returncode == 2 and "2-4 players" in too_many.stderr
    bad_option = run_cli("simulate", "deep-vents", "--options", '{"row_size": 4}')
    assert bad_option.returncode == 2 and "row_size is 6 or 5" in bad_option.stderr


def test_schema_prints_the_published_schema(capsys):
    assert main(["schema", "deep-vents"]) == 0
    printed = json.loads(capsys.readouterr().out)
    published = json.loads((ROOT / "docs/schemas/deep-vents.schema.json").read_text())
    assert printed == published
