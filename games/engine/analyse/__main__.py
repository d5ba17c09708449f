"""Run the analysis's command-line interface: ``python -m games.engine.analyse``."""

import sys

from games.engine.analyse.cli import main

sys.exit(main())
