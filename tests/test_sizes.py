"""Every module stays small enough to read whole: no Python module of the project (apps, harness, scripts,
botclient, tests; migrations are generated) and no file of the frontend's (its ES modules, styles, images and
their tests) over 400 lines."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 400
SCRIPTS = {".js", ".mjs", ".ts", ".css"}
"""The frontend's modules counted wherever they are under ``frontend/`` (its ``node_modules`` is not the project's)."""
STATIC = "frontend/static/frontend/"
SERVED = {".svg", ".html", ".json"}
"""And the other text files the pages load from :data:`STATIC` (not the tools' configuration and lock files)."""


def project_files() -> list[str]:
    """The files git tracks, and those it would (new, not ignored), that are still on disk."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=30,
    ).stdout.split("\0")
    return sorted(name for name in set(listed) if name and (ROOT / name).is_file())


def counted(name: str) -> bool:
    """Whether ``name`` (a path from the project's root) is a module held to the limit."""
    path = Path(name)
    if path.suffix == ".py":
        return "migrations" not in path.parts
    if path.parts[0] != "frontend" or "node_modules" in path.parts:
        return False
    return path.suffix in SCRIPTS or (name.startswith(STATIC) and path.suffix in SERVED)


def over_limit(root: Path, names: list[str]) -> dict[str, int]:
    """Each counted file of ``names`` (paths from ``root``) over :data:`LIMIT` lines, with its count."""
    sizes = {name: len((root / name).read_text().splitlines()) for name in names if counted(name)}
    return {name: lines for name, lines in sizes.items() if lines > LIMIT}


def test_what_is_counted() -> None:
    assert counted("games/engine/cpu/search.py") and counted("tests/test_sizes.py") and counted("scripts/bench_cpu.py")
    assert counted("frontend/static/frontend/api.js") and counted("frontend/static/frontend/site.css")
    assert counted("frontend/tests/clock.test.js") and counted("frontend/types/globals.d.ts")
    assert not counted("games/migrations/0001_initial.py")
    assert not counted("frontend/node_modules/three/build/three.module.js")
    assert not counted("docs/architecture.md") and not counted("frontend/static/frontend/sounds/drop.ogg")
    assert counted("frontend/static/frontend/icons/site.svg") and not counted("frontend/package-lock.json")


def test_each_module_over_the_limit_is_named_with_its_count(tmp_path: Path) -> None:
    sizes = {"app/long.py": 401, "app/full.py": 400, "frontend/big.js": 512, "app/migrations/0001.py": 900,
             "docs/long.md": 900, "frontend/package-lock.json": 900}
    for name, lines in sizes.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n" * lines)
    assert over_limit(tmp_path, list(sizes)) == {"app/long.py": 401, "frontend/big.js": 512}


def test_no_module_is_over_400_lines() -> None:
    names = project_files()
    files = [name for name in names if counted(name)]
    # The check looks where the modules are: the engine's, the tests', the pages'.
    assert {"games/engine/cpu/search.py", "tests/test_sizes.py", "config/settings.py"} <= set(files)
    assert len([name for name in files if name.startswith("frontend/static/frontend/")]) > 20
    assert over_limit(ROOT, names) == {}
