"""The server's Prometheus metrics: defined here, in the lowest layer, so every layer above may record
into them (``config.metrics`` serves them at ``GET /metrics``).

Each server process keeps its own values (the default ``prometheus_client`` registry of the process);
Prometheus scrapes every process and sums. The gauges of rooms open and games being played are not
here: they are counted in the database at scrape time (``config.metrics``).
"""

from __future__ import annotations

import threading

from prometheus_client import Counter, Gauge, Histogram

# The kinds of move a game records: a person's, or the CPU's for a CPU seat, a timeout or a stand-in.
MOVE_KINDS = ("person", "cpu", "timeout", "stand_in")
CPU_LEVELS = ("1", "2", "3", "4", "5")

MOVES = Counter(
    "fourinarow_moves_total",
    "Moves applied (committed), by kind: person, cpu (a CPU seat), timeout, stand_in.",
    ["kind"],
)
MOVE_SERVICE_SECONDS = Histogram(
    "fourinarow_move_service_seconds",
    "Time a move service took, from the call to its commit or refusal (service: drop, cpu_move).",
    ["service"],
)
WEBSOCKETS_OPEN = Gauge(
    "fourinarow_websocket_connections_open",
    "Room websockets accepted and joined to their room by this process, not yet disconnected.",
)
HTTP_RESPONSES_WAITING = Gauge(
    "fourinarow_http_responses_waiting",
    "Streamed HTTP responses waiting for their client to read what was sent (back-pressure: config.serve).",
)
TICKER_LATENESS_SECONDS = Histogram(
    "fourinarow_scheduler_lateness_seconds",
    "How late a due automatic action was taken up by the ticker, after its due time (by reason).",
    ["reason"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
)
CPU_THINK_SECONDS = Histogram(
    "fourinarow_cpu_think_seconds",
    "Wall time from asking the CPU worker pool for a move to its answer, by CPU level.",
    ["level"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0),
)
FRAMES_REFUSED = Counter(
    "fourinarow_frames_refused_total",
    "Websocket frames answered with an error frame, by error code.",
    ["code"],
)
CPU_POOL_REPLACED = Counter(
    "fourinarow_cpu_pool_replaced_total",
    "CPU worker pools replaced because a worker process died (the job it held was asked again).",
)
DB_ROUND_TRIPS = Counter(
    "fourinarow_db_round_trips_total",
    "Round trips to PostgreSQL: every statement, and the BEGIN and the COMMIT or ROLLBACK of every transaction.",
)
# A person's drops that landed, by path: held (one statement from the room the process holds), locked (under
# the room's lock: nothing held, or a stale copy) and ended (the move ended the game, either way: its end
# written with it, the rest after commit by games.postgame); and their round trips to PostgreSQL (none
# counted on SQLite).
DROP_PATHS = ("held", "locked", "ended")
DROPS = Counter("fourinarow_drops_total", "A person's drops that landed, by path: held, locked, ended.", ["path"])
DROP_ROUND_TRIPS = Counter(
    "fourinarow_drop_round_trips_total",
    "Round trips to PostgreSQL of a person's drops that landed, by path: held, locked, ended.",
    ["path"],
)
CHANNEL_LAYER_SEND_FAILURES = Counter(
    "fourinarow_channel_layer_send_failures_total",
    "Sends to the channel layer that raised (a room's snapshot or notice not delivered).",
)

_here = threading.local()  # this thread's round trips to the database, for a service to count its own


def round_trip() -> None:
    """The database backend made a round trip in this thread (``DB_ROUND_TRIPS``, and this thread's count)."""
    DB_ROUND_TRIPS.inc()
    _here.trips = getattr(_here, "trips", 0) + 1


def round_trips_here() -> int:
    """The round trips this thread has made so far (a service reads it before and after)."""
    trips: int = getattr(_here, "trips", 0)
    return trips


# Labels known in advance start at zero, so a rate() over them works from the first scrape.
for _path in DROP_PATHS:
    DROPS.labels(path=_path)
    DROP_ROUND_TRIPS.labels(path=_path)
for _kind in MOVE_KINDS:
    MOVES.labels(kind=_kind)
for _level in CPU_LEVELS:
    CPU_THINK_SECONDS.labels(level=_level)
