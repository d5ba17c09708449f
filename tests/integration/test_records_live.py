"""A player's ``games.txt`` streamed to a client that reads nothing (issue 47, item 6), on a real daphne process:
the server writes no more than its buffers hold and waits (back-pressure), and the stream keeps its address's
one slot until the client has the body or goes."""

from __future__ import annotations

import socket
import subprocess
import time

import pytest

from tests.livekit import BIN, ROOT, running, server_env, sqlite_database

pytestmark = [pytest.mark.slow]

GAMES = 15_000  # about 6 MB of records: more than the kernel's and twisted's buffers on loopback

# One game made as the ORM makes it, the others copies of it numbered on, in one SQL statement (the ORM's
# bulk_create took 2.6 s of CPU over them); each copy has an id of its own (a UUIDField: 32 hex digits on SQLite).
MAKE_GAMES = f"""
from django.db import connection
from django.utils import timezone
from games.models import Game, GameStatus
from lobby.models import Room
from players.services import player_create
now = timezone.now()
ann, bob = (player_create(name=name, now=now) for name in ("Ann", "Bob"))
room = Room.objects.create(code="RECORD", host=ann, created_at=now, last_activity_at=now)
first = Game.objects.create(room=room, number=1, red_seat=1, red_player=ann, yellow_player=bob, status=GameStatus.WON,
                            reason="line", record="a1 b1 a2 b2 a3 b3 a4", ply=7, started_at=now, turn_started_at=now,
                            finished_at=now)
columns = ", ".join(f.column for f in Game._meta.concrete_fields if f.column not in ("id", "number"))
with connection.cursor() as cursor:
    cursor.execute("WITH RECURSIVE n(k) AS (SELECT 2 UNION ALL SELECT k + 1 FROM n WHERE k < {GAMES}) "
                   f"INSERT INTO games_game (id, number, {{columns}}) "
                   f"SELECT lower(hex(randomblob(16))), k, {{columns}} FROM n, games_game WHERE games_game.id = %s",
                   [first.pk.hex])
assert Game.objects.filter(room=room).count() == {GAMES}
print(ann.pk)
"""


def waiting_for_its_reader(server, *, timeout: float = 60) -> None:
    """Wait until the server's stream waits for its client to read (it wrote what the buffers hold)."""
    end = time.monotonic() + timeout
    while server.metric("fourinarow_http_responses_waiting") < 1:
        assert time.monotonic() < end, "the stream never waited for its reader"
        time.sleep(0.2)


def status_of(port: int, path: str) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        return int(client.recv(64).split()[1])


def test_a_client_that_reads_nothing_holds_a_buffer_not_the_body_and_the_slot_until_it_goes(tmp_path):
    env = server_env(SQLITE_PATH=sqlite_database(tmp_path), HTTP_THREADS="2")
    made = subprocess.run([str(BIN / "python"), "manage.py", "shell", "-c", MAKE_GAMES], cwd=ROOT, env=env,
                          check=True, timeout=120, capture_output=True, text=True)
    path = f"/api/players/{made.stdout.strip().splitlines()[-1]}/games.txt"
    with running(env, 1, log_dir=tmp_path) as (server,):
        assert server.proc is not None
        reader = socket.socket()
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        reader.connect(("127.0.0.1", server.port))
        reader.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        try:
            assert reader.recv(12).startswith(b"HTTP/1.1 200")
            waiting_for_its_reader(server)  # it wrote what the buffers hold, and waits: the rest is not in memory
            # The stream waits for its reader: it still holds the address's one slot.
            assert status_of(server.port, path) == 429
        finally:
            reader.close()
        # Gone, the reader's stream ends and gives the slot back.
        end = time.monotonic() + 30
        while status_of(server.port, path) != 200:
            assert time.monotonic() < end, "the slot was not given back"
            time.sleep(0.2)
        assert not server.log_errors()
