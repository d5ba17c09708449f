"""The engine imports nothing but the standard library (checked in a clean interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
before = set(sys.modules)
import games.engine
import games.engine.cli
new = sorted(set(sys.modules) - before)
print(json.dumps(new))
"""


def test_engine_imports_only_the_standard_library() -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-c", PROBE, str(ROOT)], capture_output=True, text=True, check=True, timeout=30
    )
    loaded = json.loads(done.stdout)
    assert "django" not in loaded
    assert "games.engine" in loaded
    foreign = [
        name for name in loaded if name.split(".")[0] not in sys.stdlib_module_names and name.split(".")[0] != "games"
    ]
    assert foreign == []
