"""The load benchmark: concurrent games over the real protocol, beside a bare Channels echo.

``scripts/bench_server.py`` runs it (``make bench-server`` runs the suite). Modules, bottom up:
  stats      what a run measured (``Stats``), the percentile, the pacing loop, setting drivers up
  game       the load-generator core: ``GameDriver`` (two devices playing one room), ``run_load``
  echo       ``EchoPair``: the baseline, two sockets of the echo server (``scripts/echo_asgi.py``)
  scenarios  phases of paced and saturated play, idle sockets, a spectator storm
  arena      an arena of many players: its waves, its standings frames, every game exactly once
  report     the tables: one run's, the suite's with its targets; writing them into the docs
  suite      the configurations (embedded, PostgreSQL + Redis on one and two processes) and their servers
  cli        the command line
"""
