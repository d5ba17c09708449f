"""Run the engine's command-line interface: ``python -m games.engine``."""

import sys

from games.engine.cli import main

sys.exit(main())
