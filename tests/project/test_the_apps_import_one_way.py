"""The import contract: the project's layers (README, Layout) hold, read from the source.

Top to bottom: the project shell (deepsea), the site pages (pages), the feature apps, notices,
games, players, the shared library (common), the engines. A module imports only its own layer
and those below; a feature app reads another only through the interfaces listed in
BETWEEN_FEATURE_APPS; the engines import neither Django nor an app. A model named by string
(`apps.get_model("ratings", ...)`, `sender="ratings.RatingLedger"`) counts as an import.
Function-level imports count too: tasks are defined beside their work, and no app imports a
tasks.py (it only names the tasks for Celery's discovery).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"deepsea"}),
    frozenset({"pages"}),
    frozenset({"tournaments", "accounts", "confirmations", "ratings", "stats", "analysis"}),
    frozenset({"notices"}),
    frozenset({"games"}),
    frozenset({"players"}),
    frozenset({"common"}),
    frozenset({"engines"}),
)
LAYER_OF = {package: depth for depth, packages in enumerate(LAYERS) for package in packages}
# The only reads of one feature app by another, each through a module named for it.
BETWEEN_FEATURE_APPS = {
    ("tournaments", "ratings.services"),  # seating by Elo: current_elo
    ("tournaments", "confirmations.models"),  # a table's state shows its game's review
    ("accounts", "tournaments.models"),  # the tournaments a claimed name played in
    ("stats", "ratings.services"),  # rating bands: elo_going_into
    ("stats", "ratings.signals"),  # the page cache moves with ratings_changed
}


@dataclass(frozen=True)
class Import:
    path: Path
    line: int
    module: str

    @property
    def package(self) -> str:
        return self.module.split(".")[0]

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line} imports {self.module}"


def model_label_module(label: str) -> str | None:
    """ "ratings.RatingLedger" -> "ratings.models"; None for a string that names no model."""
    app, dot, model = label.partition(".")
    if dot and app in LAYER_OF and model[:1].isupper() and model.isidentifier():
        return f"{app}.models"
    return None


def imports_of(path: Path) -> Iterator[Import]:
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(path, node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:  # `from games import tasks` reads games.tasks
                yield Import(path, node.lineno, f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            strings = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if name == "get_model" and strings and strings[0] in LAYER_OF:
                yield Import(path, node.lineno, f"{strings[0]}.models")
            for keyword in node.keywords:
                value = keyword.value
                module = (
                    model_label_module(str(value.value))
                    if keyword.arg == "sender" and isinstance(value, ast.Constant)
                    else None
                )
                if module:
                    yield Import(path, node.lineno, module)


def source_files(package: str) -> Iterator[Path]:
    for path in sorted((ROOT / package).rglob("*.py")):
        if "migrations" not in path.parts:  # a migration is frozen history
            yield path


def project_imports() -> Iterator[tuple[str, Import]]:
    for package in LAYER_OF:
        for path in source_files(package):
            for found in imports_of(path):
                yield package, found


def test_every_app_of_the_project_has_a_layer():
    apps = {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in {"tests", "benchmarks", "docs", "docker"}
    }
    assert apps <= set(LAYER_OF), f"give {sorted(apps - set(LAYER_OF))} a layer"


def test_no_module_imports_a_layer_above_its_own():
    upward = [
        str(found)
        for package, found in project_imports()
        if found.package in LAYER_OF and LAYER_OF[found.package] < LAYER_OF[package]
    ]
    assert upward == []


def test_a_feature_app_reads_another_only_through_its_named_interfaces():
    features = LAYERS[LAYER_OF["tournaments"]]
    lateral = [
        str(found)
        for package, found in project_imports()
        if package in features
        and found.package in features
        and found.package != package
        and not any(
            package == reader and (found.module + ".").startswith(module + ".")
            for reader, module in BETWEEN_FEATURE_APPS
        )
    ]
    assert lateral == []


def test_no_two_feature_apps_read_each_other():
    """A read between feature apps goes one way: two apps that each read the other would be
    one app split in two, and a change to either could break the other's import."""
    reads = {(reader, module.split(".")[0]) for reader, module in BETWEEN_FEATURE_APPS}
    both_ways = sorted((reader, read) for reader, read in reads if (read, reader) in reads)
    assert both_ways == []


def test_the_engines_import_neither_django_nor_an_app():
    outside = [
        str(found)
        for found in (i for path in source_files("engines") for i in imports_of(path))
        if found.package == "django" or (found.package in LAYER_OF and found.package != "engines")
    ]
    assert outside == []


def test_no_app_imports_a_tasks_module():
    tasks = [
        str(found)
        for package, found in project_imports()
        if "tasks" in found.module.split(".") and found.package in LAYER_OF
    ]
    assert tasks == []


def test_the_contract_sees_imports_inside_functions_and_models_named_by_string(tmp_path):
    module = tmp_path / "probe.py"
    module.write_text(
        "def later():\n"
        "    from ratings.tasks import rate_games_task\n"
        "post_save.connect(f, sender='ratings.RatingLedger')\n"
        "apps.get_model('tournaments', 'Table')\n"
    )
    found = sorted(i.module for i in imports_of(module))

    assert "ratings.tasks.rate_games_task" in found
    assert {"ratings.models", "tournaments.models"} <= set(found)
