"""Load the server with concurrent games over the real protocol and time every move.

Run: ``.venv/bin/python scripts/bench_server.py --spawn --games 200 --rate 200 --seconds 30``
(``make bench-server`` runs the whole suite; ``--help`` for the options). The benchmark itself is the
package ``harness.bench`` (``harness/bench/__init__.py`` lists its modules); this is its entry point.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.bench.cli import main

if __name__ == "__main__":
    sys.exit(main())
