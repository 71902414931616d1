"""Games are known only to their engines (issue 26): outside `engines/` and the statistics
adapters no code compares a game's id with a literal one or dispatches on it. The engine says
what it needs (its drawn set-up, its picture, its seat summary) and the rest plumbs it.

Read from the source: a game id written as a literal is an offence where it is compared
(==, !=, ===, !==, startswith/startsWith, `in (...)`, a `case`), where it picks code (a
dict entry whose value is a function or class, `"deep-dive": deepDive`), where a game is
fetched by name (`get_game("deep-vents")`) or assigned (`default="deep-vents"`, a
parameter's default). Data
keyed per game, such as the demo's club nights, is not dispatch and is allowed; so is the
one named default, engines.registry.TOURNAMENT_GAME.

Nor does it import a game's own package (`engines.deep_vents.edition`...): it asks the
registry for the game and reads what the Game describes.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engines.registry import GAMES, get_game

ROOT = Path(__file__).resolve().parents[2]
SCANNED = (".py", ".html", ".js")
# Where games may be named: the engines themselves and the adapters statistics keep per game.
EXEMPT_DIRS = {"engines", "tests", "benchmarks", "migrations", "node_modules", ".venv"}
EXEMPT_FILES = {Path("stats/adapters.py")}


def slug_patterns(slugs: list[str]) -> list[re.Pattern[str]]:
    slug = "|".join(re.escape(s) for s in sorted(slugs, key=len, reverse=True))
    quoted = rf"""["'](?:{slug})["']"""
    prefix = "|".join(re.escape(s[:n]) for s in slugs for n in range(5, len(s) + 1))
    return [
        re.compile(rf"(?:===?|!==?)\s*{quoted}"),
        re.compile(rf"{quoted}\s*(?:===?|!==?)"),
        re.compile(rf"""\.(?:startswith|startsWith)\(\s*["'](?:{prefix})["']"""),
        re.compile(rf"\bnot\s+in\s*[(\[{{][^)\]}}]*{quoted}|\bin\s*[(\[{{][^)\]}}]*{quoted}"),
        re.compile(rf"\bcase\s+{quoted}"),
        re.compile(rf"{quoted}\s*:\s*[A-Za-z_][\w.]*\s*(?:,|}}|$)", re.MULTILINE),
        re.compile(rf"\bget_game\(\s*{quoted}"),
        re.compile(rf"(?<![=!<>])=\s*{quoted}"),
    ]


def scanned_files(root: Path) -> list[Path]:
    files = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if path.suffix not in SCANNED or relative in EXEMPT_FILES:
            continue
        if EXEMPT_DIRS & set(relative.parts[:-1]):
            continue
        files.append(path)
    return files


def offences(root: Path) -> list[str]:
    """Every place under `root` that compares or dispatches on a game's id, as path:line."""
    patterns = slug_patterns(list(GAMES))
    found = []
    for path in scanned_files(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        for pattern in patterns:
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(root)}:{line}: {match.group(0).strip()}")
    return sorted(set(found))


def setup_fields() -> set[str]:
    """Every game's own setup entries ("opening_bidder", "chips"), from the engines' schemas."""
    fields: set[str] = set()
    for game_id in GAMES:
        setup = get_game(game_id).schema()["properties"]["setup"]
        fields.update(setup.get("properties", {}))
    return fields


def setup_readings(root: Path) -> list[str]:
    """Every place under `root` that reads a game's own setup entry by name (`setup.get(
    "opening_bidder")`, `setup["chips"]`): what it means, and how it is worded, is the engine's
    to say (its seated_setup_fields and setup_contradiction)."""
    field = "|".join(re.escape(name) for name in sorted(setup_fields()))
    reading = re.compile(rf"""setup(?:\.get\(\s*|\[\s*)["'](?:{field})["']""")
    found = []
    for path in scanned_files(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in reading.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append(f"{path.relative_to(root)}:{line}: {match.group(0)}")
    return sorted(found)


def game_packages() -> set[str]:
    """Each game's package under engines/ ("engines.deep_vents"), from the registry."""
    return {".".join(entry.split(":")[0].split(".")[:2]) for entry in GAMES.values()}


def package_imports(root: Path) -> list[str]:
    """Every import of a game's package under `root`, outside engines/ and the adapters."""
    packages = game_packages()
    found = []
    for path in scanned_files(root):
        if path.suffix != ".py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                if any(module == p or module.startswith(f"{p}.") for p in packages):
                    found.append(f"{path.relative_to(root)}:{node.lineno}: {module}")
    return sorted(found)


def test_no_game_slug_is_compared_or_dispatched_on_outside_the_engines():
    assert offences(ROOT) == []


def test_no_code_outside_the_engines_reads_a_games_own_setup_entry_by_name():
    assert setup_readings(ROOT) == []


def test_the_scan_finds_a_setup_entry_read_by_name(tmp_path):
    planted = {
        "tournaments/a.py": 'seat = setup.get("opening_bidder")\n',
        "games/b.js": 'const chips = log.setup["chips"];\n',
    }
    allowed = {
        "engines/c.py": 'seat = setup.get("opening_bidder")\n',
        "games/d.js": "const seated = table.setup[input.key];\n",
    }
    for name, text in {**planted, **allowed}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    assert {found.split(":")[0] for found in setup_readings(tmp_path)} == set(planted)


def test_no_code_outside_the_engines_and_the_adapters_imports_a_game_package():
    assert package_imports(ROOT) == []


def test_the_scan_finds_imports_of_a_game_package(tmp_path):
    planted = {
        "stats/services/hexes.py": "from engines.deep_vents.edition import editions\n",
        "games/x.py": "import engines.deep_dive.state\n",
    }
    allowed = {
        "stats/adapters.py": "from engines.deep_vents.edition import editions\n",
        "games/y.py": "from engines.registry import get_game\nfrom engines.core import game\n",
        "engines/z.py": "from engines.deep_sea_adventure.state import DeepSeaState\n",
    }
    for name, text in {**planted, **allowed}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    assert {found.split(":")[0] for found in package_imports(tmp_path)} == set(planted)


def test_the_scan_finds_each_kind_of_comparison_and_dispatch(tmp_path):
    planted = {
        "games/a.py": 'if game_id == "deep-vents":\n    pass\n',
        "games/b.js": 'if (game.id.startsWith("deep-sea-adventure")) {}\n',
        "games/c.js": 'const PICTURES = {\n  "deep-dive": deepDive,\n};\n',
        "games/d.html": '{% if log.game_type == "deep-dive" %}x{% endif %}\n',
        "games/e.py": 'ok = game_id in ("deep-dive", "deep-vents")\n',
        "games/f.py": 'game = get_game("deep-vents")\n',
        "games/g.py": 'field = CharField(default="deep-vents")\n',
        "games/i.py": 'def strategy(player, game_id: str = "deep-vents"): ...\n',
        "games/h.js": 'switch (id) { case "deep-vents": break; }\n',
    }
    allowed = {
        "games/data.py": 'NIGHTS = {"deep-vents": Nights(30, 4), "deep-dive": Nights(24, 3)}\n',
        "games/words.py": '"""{{ "deep-vents"|game_title }} reads Deep Vents."""\n',
        "engines/x.py": 'if game_id == "deep-vents":\n    pass\n',
        "stats/adapters.py": 'ADAPTERS = {"deep-vents": DeepVentsAdapter}\n',
        "tournaments/demo.py": 'DEMO_SLUG = "demo-deep-vents-open"\n',
    }
    for name, text in {**planted, **allowed}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)

    found = {offence.split(":")[0] for offence in offences(tmp_path)}

    assert found == set(planted)
