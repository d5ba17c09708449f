"""The command that serves the project: ``python -m config.serve [daphne's arguments] config.asgi:application``.

It runs :func:`config.serving.main`: daphne's own command line, with its websocket pings set from
``PING_TIMEOUT_SECONDS`` (``config.serving`` says what else its server does and keeps), and names the
parts of that module as its own (``config.serve.body_sent`` is ``config.serving.body_sent``).

This module is only the command, and imports nothing at the top: a CPU worker process (``games.cpu_pool``,
started with multiprocessing's spawn) imports the main module of its server first, and a main module that
imported daphne, twisted and autobahn cost every worker 0.28 s of CPU it never used (a worker of its own for
the CPU's moves in every server started, one for the analyses, one for the analysis board).
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:  # Any: whatever config.serving names
    from config import serving

    return getattr(serving, name)


def main() -> None:
    from config.serving import main as serve

    serve()


if __name__ == "__main__":
    main()
