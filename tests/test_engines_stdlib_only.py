"""Each rules engine (games/engine: Four in a Row; arcade/engine: 2048 and 3D 2048) imports nothing but the
standard library and itself: every module of it read (each import statement, wherever it is) and imported
(in a clean interpreter), and its import-linter contract forbids every library the project installs."""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Each engine, and modules that must be among those found (a check that the walk saw the package whole).
ENGINES = {
    "games.engine": {"games.engine", "games.engine.cpu", "games.engine.cpu.search", "games.engine.cli",
                     "games.engine.puzzle"},
    "arcade.engine": {"arcade.engine", "arcade.engine.slide", "arcade.engine.run", "arcade.engine.record"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).parent.parts)


def foreign_imports(source: str, package: str, *, engine: str = "games.engine") -> list[str]:
    """What ``source`` (a module of ``package``) imports beyond the standard library and ``engine``,
    and any import made by name at run time (``__import__``, ``importlib.import_module``), which
    reading cannot follow."""
    here = package.split(".")
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against the module's package
                base = here[: len(here) - node.level + 1]
                names = [".".join([*base, *([node.module] if node.module else [])])]
            else:
                names = [node.module or ""]
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if called in {"__import__", "import_module"}:
                found.append(f"{called}(...)")
            continue
        else:
            continue
        for name in names:
            if name.split(".")[0] not in sys.stdlib_module_names and not (
                name == engine or name.startswith(f"{engine}.")
            ):
                found.append(name)
    return found


def test_the_check_catches_a_foreign_import_anywhere() -> None:
    assert foreign_imports("import json\nfrom games.engine.values import Peg\n", "games.engine") == []
    assert foreign_imports("def f():\n    import django.db\n", "games.engine") == ["django.db"]
    assert foreign_imports("from networkx import Graph\n", "games.engine") == ["networkx"]
    assert foreign_imports("from games.models import Game\n", "games.engine") == ["games.models"]
    assert foreign_imports("from .. import models\n", "games.engine") == ["games"]
    assert foreign_imports("from .search import Node\n", "games.engine.cpu") == []
    assert foreign_imports("from ..search import Node\n", "games.engine.cpu") == []
    assert foreign_imports("from ... import models\n", "games.engine.cpu") == ["games"]
    assert foreign_imports("import importlib\nimportlib.import_module('redis')\n", "games.engine") == [
        "import_module(...)"
    ]
    assert foreign_imports("from arcade.engine.slide import slide\n", "arcade.engine", engine="arcade.engine") == []
    assert foreign_imports("from games.engine import Peg\n", "arcade.engine", engine="arcade.engine") == [
        "games.engine"
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_every_engine_module_imports_only_the_standard_library(engine: str) -> None:
    paths = sorted(ROOT.joinpath(*engine.split(".")).rglob("*.py"))
    modules = {module_name(path): path for path in paths}
    assert ENGINES[engine] <= set(modules)
    foreign = {
        name: found for name, path in modules.items()
        if (found := foreign_imports(path.read_text(), package_of(path), engine=engine))
    }
    assert foreign == {}


PROBE = """
import importlib, json, pkgutil, sys
sys.path.insert(0, sys.argv[1])
before = set(sys.modules)
engine = importlib.import_module(sys.argv[2])
for info in pkgutil.walk_packages(engine.__path__, sys.argv[2] + "."):
    if not info.name.endswith("__main__"):  # running it would start the CLI
        importlib.import_module(info.name)
new = sorted(set(sys.modules) - before)
print(json.dumps(new))
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_importing_every_engine_module_loads_only_the_standard_library(engine: str) -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, str(ROOT), engine], capture_output=True, text=True, check=True, timeout=30
    )
    loaded = json.loads(done.stdout)
    assert ENGINES[engine] <= set(loaded)
    # __mp_main__: multiprocessing's second name for __main__ (games.engine.match plays on a process pool).
    own = {engine.split(".")[0], engine, "__mp_main__"}
    foreign = [
        name for name in loaded
        if name.split(".")[0] not in sys.stdlib_module_names and name not in own
        and not name.startswith(f"{engine}.")
    ]
    assert foreign == []


def normalised(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def import_names(distributions: list[str]) -> set[str]:
    """The top-level modules these distributions install (``Django``: ``django``; a stub package: none)."""
    wanted = {normalised(dist) for dist in distributions}
    return {
        name for name, dists in importlib.metadata.packages_distributions().items()
        if name.isidentifier() and not name.startswith("_") and any(normalised(dist) in wanted for dist in dists)
    }


@pytest.mark.parametrize("engine", ENGINES)
def test_the_engine_contract_forbids_every_library_the_project_installs(engine: str) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    declared = [*project["project"]["dependencies"], *project["project"]["optional-dependencies"]["dev"]]
    distributions = [re.split(r"[\[=<>!~ ;]", spec, maxsplit=1)[0] for spec in declared]
    assert "Django" in distributions and "pytest" in distributions
    libraries = import_names(distributions)
    assert {"django", "rest_framework", "channels_redis", "networkx", "pytest", "xdist", "importlinter"} <= libraries
    contracts = project["tool"]["importlinter"]["contracts"]
    (contract,) = [c for c in contracts if c.get("source_modules") == [engine]]
    assert sorted(libraries - set(contract["forbidden_modules"])) == []
    # Nor any app: every other root package of the project.
    others = set(project["tool"]["importlinter"]["root_packages"]) - {engine.split(".")[0]}
    forbidden = set(contract["forbidden_modules"])
    assert sorted(others - forbidden) == []
