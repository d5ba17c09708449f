"""A bot client for the site's bot API (docs/bots.md): ``python -m botclient --token T --cpu 5``.

It logs in with a personal access token, accepts challenges by the rules it is given, and plays each game
with an engine: any command speaking the line protocol on stdin/stdout (``--engine "./my-engine"``), or the
site's own CPU levels (``--cpu LEVEL``, :mod:`botclient.cpu_engine`, itself an engine of that protocol).

It talks HTTP only and imports nothing of the server (an import-linter contract holds it to that; only the
built-in CPU adapter imports the engine, a standard-library package).

Modules:
  api         HTTP calls and NDJSON streams, with the token
  engines     the line protocol: an engine process, asked for a move with a time budget
  cpu_engine  the site's CPU levels as a line-protocol engine (``python -m botclient.cpu_engine --level 5``)
  policy      which challenges to accept
  bot         the event stream, a thread per game
  cli         the command line
"""
