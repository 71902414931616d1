"""`python -m engines simulate|verify` for Deep Dive."""

import json
import subprocess
import sys
from pathlib import Path

from engines.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "engines", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_simulated_games_are_written_and_verify(tmp_path):
    out = tmp_path / "x.jsonl"
    simulated = run_cli(
        "simulate", "deep-dive", "--players", "3", "--games", "10", "--seed", "1", "--out", str(out)
    )
    assert simulated.returncode == 0, simulated.stderr
    logs = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(logs) == 10
    assert all(len(log["players"]) == 3 and log["game"] == "deep-dive" for log in logs)
    verified = run_cli("verify", str(out))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.count(": ok scores") == 10


def test_same_seed_writes_the_same_games(capsys):
    main(["simulate", "deep-dive", "--players", "2", "--games", "3", "--seed", "7"])
    first = capsys.readouterr().out
    main(["simulate", "deep-dive", "--players", "2", "--games", "3", "--seed", "7"])
    assert capsys.readouterr().out == first


def test_named_strategies_sit_at_the_table_in_seat_order(capsys):
    table = "risk-aware,surface-after-2,surface-after-3,random"
    main(["simulate", "deep-dive", "--players", "4", "--strategies", table, "--seed", "2"])
    log = json.loads(capsys.readouterr().out)
    assert [player["strategy"] for player in log["players"]] == table.split(",")


def test_verify_reports_a_tampered_log_with_event_and_ruling(tmp_path, capsys):
    main(["simulate", "deep-dive", "--players", "2", "--games", "1", "--seed", "3"])
    log = json.loads(capsys.readouterr().out)
    first_open = next(i for i, e in enumerate(log["events"]) if e["type"] == "open")
    log["events"][first_open]["empty"] += 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(log))
    assert main(["verify", "--json", str(path)]) == 1
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "invalid"
    assert record["error"]["index"] == first_open
    assert record["error"]["rule"] == "DD-4"


def test_five_players_are_refused_with_a_clear_error():
    refused = run_cli("simulate", "deep-dive", "--players", "5")
    assert refused.returncode == 2
    assert "deep-dive takes 2-4 players" in refused.stderr
