"""The harness: real server processes and the clients that drive them, for the tests and the benchmarks.

One kit for "start servers, make devices, play", shared by ``tests/`` (``tests/livekit.py`` and
``tests/faultkit.py`` are thin layers over it) and ``scripts/`` (the benchmarks, ``harness.bench``).
Nothing is faked: a server is ``daphne`` in its own process on a free port, a device is an HTTP client
with its own cookies, a socket is a real websocket that follows the room as the page does.

It never imports ``tests`` (a script must not import the test suite) and, of the server's code, only the
wire format (``lobby.protocol``, in ``harness.room`` alone); ``make lint`` holds it to that.

Modules:
  ports     free TCP ports, waiting for a port to open or close
  procfs    a process's CPU time, memory and children, read from /proc
  server    the server's environment, migrations, ``LiveServer`` (start, wait, stop, kill, log, metrics)
  database  a throwaway PostgreSQL database per run, or a migrated SQLite file
  device    ``Device``: a browser-like HTTP client (cookies, CSRF)
  room      ``RoomSocket``: the room websocket, following the room as the page does
  lobby     ``LobbySocket``: the lobby websocket, as the home page holds it
  bench     the load benchmark (``scripts/bench_server.py`` runs it)
"""
