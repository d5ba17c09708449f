"""The move path: statements per drop, the ``move`` frame, and frames per join.

No timings here (the machine is shared): what is asserted is what can be counted exactly, the SQL
statements of a drop and the frames a room's connections receive.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from common import metrics
from games.models import Game, Move
from games.postgame import post_games_run
from lobby import events
from lobby.models import Room
from lobby.play.held import HELD
from lobby.play.moves import game_drop, game_start
from lobby.protocol import room as protocol
from lobby.realtime import presence
from lobby.realtime.loop import lobby_loop
from lobby.rooms.connections import connection_open, process_register
from lobby.rooms.services import ACTIVITY_GRANULARITY, room_create, room_sit
from players.services import player_create
from ratings.models import RatingChange
from tests.layerkit import GroupListener
from tests.roomkit import Client, at_ply, make_player_async, make_room_async, seated_pair

PEGS = [c + r for c in "abcd" for r in "1234"]
LOCKED_STATEMENTS = 5  # lock and bump the room, seats, game, INSERT the move, UPDATE the game


def statements(captured: CaptureQueriesContext) -> list[str]:
    """The SQL statements run, without the transaction's BEGIN and COMMIT."""
    return [q["sql"] for q in captured.captured_queries if q["sql"].split()[0].upper() not in {"BEGIN", "COMMIT"}]


def two_players_in_a_game(**rules):
    """Ann (seat 1, red) and Bob (seat 2), both connected, the first game started; returns code and players."""
    now = timezone.now()
    ann, bob = player_create(name="Ann", now=now), player_create(name="Bob", now=now)
    code = room_create(host=ann, rules=rules, now=now).code
    room_sit(code=code, player=bob, now=now)
    process_register(process="p", now=now)
    connection_open(code=code, channel_name="chan-ann", player=ann, process="p", now=now)
    connection_open(code=code, channel_name="chan-bob", player=bob, process="p", now=now)
    game_start(code=code, player=ann, now=now)
    return code, ann, bob


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("rules", [{}, {"ranked": False, "turn_seconds": 30}], ids=["ranked", "timed"])
def test_a_drop_from_the_held_room_is_one_round_trip_on_postgresql(rules):
    """The process holds the room as its game's start left it, then as each move did: a drop reads
    nothing, and is one statement on PostgreSQL (no BEGIN, no COMMIT: one round trip); SQLite, with no
    writing CTE, runs the same three writes in a transaction."""
    code, ann, bob = two_players_in_a_game(**rules)
    listener = GroupListener(events.room_group(code))
    try:
        for ply, (player, peg) in enumerate([(ann, "a1"), (bob, "b2"), (ann, "a1")]):
            with CaptureQueriesContext(connection) as captured:
                game_drop(code=code, player=player, peg=peg, ply=ply, now=timezone.now())
            sent = listener.receive()  # the broadcast, sent once the statement landed, read nothing more
            assert sent["type"] == "room.move" and sent["ply"] == ply + 1
            run = [q["sql"] for q in captured.captured_queries]
            if connection.vendor == "postgresql":
                assert len(run) == 1 and run[0].startswith("WITH guard AS (UPDATE"), "\n".join(run)
            else:
                assert len(statements(captured)) == 3, "\n".join(run)
    finally:
        listener.close()
    game = Game.objects.get(room__code=code)
    assert (game.ply, game.record) == (3, "a1 b2 a1")
    assert list(Move.objects.filter(game=game).order_by("ply").values_list("peg", flat=True)) == ["a1", "b2", "a1"]
    assert Room.objects.get(code=code).version == sent["version"]


def requests_sent(trace: str) -> list[str]:
    """The requests a libpq trace shows the client sending, each answered before the next: a simple
    ``Query``, or the ``Sync`` that ends an extended query."""
    return [line for line in trace.splitlines() if "\tF\t" in line and line.split("\t")[3] in {"Query", "Sync"}]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_drop_from_the_held_room_is_one_request_on_the_wire_and_counted_so(tmp_path):
    """Seen by libpq itself (its protocol trace), and by the process's round-trip counters that the
    benchmark reads (all of them, and the drops' by path): one round trip for a drop from the held room,
    seven under the lock (BEGIN, five statements, COMMIT), and one for the drop that ends the game."""
    code, ann, bob = two_players_in_a_game(ranked=True)
    trips = []
    plan = [(ann, "a1", "held"), (bob, "b1", "locked"), *[((ann, bob)[ply % 2], WIN[ply], "held") for ply in
                                                          range(2, 6)], (ann, "a1", "ended")]
    for ply, (player, peg, path) in enumerate(plan):
        if path == "locked":
            HELD.clear()
        connection.ensure_connection()
        before = [metrics.DB_ROUND_TRIPS._value.get(), metrics.DROPS.labels(path=path)._value.get(),
                  metrics.DROP_ROUND_TRIPS.labels(path=path)._value.get()]
        with (tmp_path / f"trace{ply}").open("w") as out:
            connection.connection.pgconn.trace(out.fileno())
            try:
                game_drop(code=code, player=player, peg=peg, ply=ply, now=timezone.now())
            finally:
                connection.connection.pgconn.untrace()
        after = [metrics.DB_ROUND_TRIPS._value.get(), metrics.DROPS.labels(path=path)._value.get(),
                 metrics.DROP_ROUND_TRIPS.labels(path=path)._value.get()]
        trips.append((len(requests_sent((tmp_path / f"trace{ply}").read_text())),
                      *(b - a for a, b in zip(before, after, strict=True))))
    # On the wire; counted; the drops by path and their trips.
    assert trips == [(1, 1, 1, 1), (7, 7, 1, 7), *[(1, 1, 1, 1)] * 4, (1, 1, 1, 1)]


WIN = ["a1", "b1", "a1", "b1", "a1", "b1", "a1"]  # Ann (red) stacks four on a1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("rules", [{}, {"ranked": False, "turn_seconds": 30}], ids=["ranked", "timed"])
def test_a_drop_that_ends_the_game_is_one_round_trip_and_the_rest_follows_after_commit(rules):
    """The drop that ends a ranked game, from the held room: one statement on PostgreSQL (the version bump,
    the game's UPDATE with its end, the move's INSERT: one round trip, under the target of two before its
    frame leaves); SQLite runs the same three writes in a transaction. Its ``move`` frame carries the end;
    the room shows the ratings the game was played for until its post-game work (the rating: after
    commit, here run by hand as the post-game loop runs it) sends the room anew with the new ones."""
    code, ann, bob = two_players_in_a_game(**rules)
    listener = GroupListener(events.room_group(code))
    try:
        for ply, peg in enumerate(WIN[:-1]):
            game_drop(code=code, player=(ann, bob)[ply % 2], peg=peg, ply=ply, now=timezone.now())
            listener.receive()
        with CaptureQueriesContext(connection) as captured:
            game_drop(code=code, player=ann, peg="a1", ply=6, now=timezone.now())
        sent = listener.receive()
        run = [q["sql"] for q in captured.captured_queries]
        if connection.vendor == "postgresql":
            assert len(run) == 1 and run[0].startswith("WITH guard AS (UPDATE"), "\n".join(run)
        else:
            assert len(statements(captured)) == 3, "\n".join(run)
        frame = json.loads(sent["text"])
        assert sent["type"] == "room.move" and (frame["ply"], frame["status"], frame["winner_seat"]) == (7, "won", 1)
        assert frame["reason"] == "line" and frame["line"] == [{"peg": "a1", "level": n} for n in (1, 2, 3, 4)]
        assert not RatingChange.objects.exists()  # not on the move's path
        assert post_games_run() == 1
        if "turn_seconds" not in rules:  # a ranked room: sent anew, rated
            again = listener.receive()
            seats = again["snapshot"]["seats"]
            assert again["type"] == "room.snapshot" and again["snapshot"]["version"] == sent["version"] + 1
            assert seats[0]["rating"]["rating"] > 1500 > seats[1]["rating"]["rating"]
    finally:
        listener.close()
    game = Game.objects.get(room__code=code)
    assert (game.status, game.ply, game.post_due) == ("won", 7, None)
    assert RatingChange.objects.filter(game=game).count() == (2 if "turn_seconds" not in rules else 0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("rules", [{}, {"ranked": False, "turn_seconds": 30}], ids=["ranked", "timed"])
def test_a_drop_with_nothing_held_takes_five_statements_under_the_lock(rules):
    code, ann, bob = two_players_in_a_game(**rules)
    listener = GroupListener(events.room_group(code))
    try:
        game_drop(code=code, player=ann, peg="a1", ply=0, now=timezone.now())
        listener.receive()
        HELD.clear()  # as when another process made the room's last change
        with CaptureQueriesContext(connection) as captured:
            game_drop(code=code, player=bob, peg="b2", ply=1, now=timezone.now())
        assert len(statements(captured)) <= LOCKED_STATEMENTS, "\n".join(statements(captured))
        assert len(captured.captured_queries) <= LOCKED_STATEMENTS + 2  # + BEGIN and COMMIT
        sent = listener.receive()  # the broadcast, sent on commit, read nothing more
        with CaptureQueriesContext(connection) as captured:  # and the room is held again
            game_drop(code=code, player=ann, peg="c3", ply=2, now=timezone.now())
        assert len(statements(captured)) == (1 if connection.vendor == "postgresql" else 3)
    finally:
        listener.close()
    assert sent["type"] == "room.move" and sent["version"] > 0


@pytest.mark.django_db(transaction=True)
def test_a_refused_drop_leaves_the_room_version_as_it_was():
    from lobby.models import Room

    code, ann, bob = two_players_in_a_game()
    before = Room.objects.get(code=code).version
    with pytest.raises(Exception) as refused:
        game_drop(code=code, player=bob, peg="a1", ply=0, now=timezone.now())  # not Bob's turn
    assert getattr(refused.value, "code", None) == "not_your_turn"
    assert Room.objects.get(code=code).version == before  # the bump of the lock statement rolled back


# --- the move frame ----------------------------------------------------------------------------------
async def synced(client: Client) -> dict:
    """The whole room as the server sends it when asked (``sync``)."""
    version = client.room["version"]
    await client.send(type="sync")
    frame = await client.wait("room", lambda f: f["version"] >= version)
    return frame


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
@pytest.mark.parametrize("rules", [{"ranked": False}, {"ranked": False, "turn_seconds": 60}], ids=["plain", "timed"])
async def test_a_move_frame_applied_to_the_last_room_frame_is_the_room_the_server_sends(rules):
    code, a, b = await seated_pair(**rules)
    watcher = await Client(code, None).connect()
    await lobby_loop().presence.settle()
    await a.send(type="start")
    await watcher.wait_room(at_ply(0))
    rng = random.Random(11)
    moves_seen = 0
    while watcher.room["game"]["status"] == "playing":
        mover = a if watcher.room["game"]["to_move_seat"] == 1 else b
        ply = watcher.room["game"]["ply"]
        await mover.wait_room(at_ply(ply))
        moves = mover.room["game"]["moves"]
        await mover.drop(rng.choice([p for p in PEGS if moves.count(p) < 4]))
        await watcher.wait_room(lambda r, ply=ply: r["game"]["ply"] == ply + 1)
        if watcher.log[-1]["type"] == "move":
            moves_seen += 1
            frame = watcher.log[-1]
            assert set(frame) == {
                "type", "version", "game", "ply", "peg", "level", "seat", "cpu", "to_move_seat", "deadline",
                "status", "winner_seat", "line", "reason", "threats", "offers",
            }
            assert await synced(watcher) == watcher.rooms[-2]  # the applied move, exactly
    assert moves_seen >= 7  # every move of the game came as a move frame (the room is unranked)
    assert watcher.room["game"]["status"] in {"won", "drawn"}
    for client in (a, b, watcher):
        await client.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_moves_against_the_cpu_come_as_move_frames_with_threats():
    ann, key = await make_player_async("Ann")
    code = await make_room_async(ann, cpu_level=1, ranked=False)
    a = await Client(code, key).connect()
    await a.send(type="start")
    await a.wait_room(at_ply(0))
    for ply, peg in enumerate(("a1", "a2", "a3")):
        await a.wait_room(lambda r, n=2 * ply: r["game"]["ply"] == n or r["game"]["status"] != "playing")
        if a.room["game"]["status"] != "playing":
            break
        moves = a.room["game"]["moves"]
        await a.drop(peg if moves.count(peg) < 4 else next(p for p in PEGS if moves.count(p) < 4))
        await a.wait_room(lambda r, n=2 * ply + 2: r["game"]["ply"] >= n or r["game"]["status"] != "playing")
    cpu_moves = [f for f in a.log if f["type"] == "move" and f["cpu"]]
    assert cpu_moves and all(f["seat"] == 2 and f["threats"] is not None for f in cpu_moves)
    assert await synced(a) == a.rooms[-2]
    await a.close()


def test_apply_move_refuses_a_frame_that_does_not_follow():
    room = {"version": 5, "game": {"id": "g", "moves": ["a1"], "ply": 1}}
    move = protocol.move_frame(
        version=6, game_id="g", ply=2, peg="b2", level=1, seat=2, cpu=False, to_move_seat=1, deadline=None,
        status="playing", winner_seat=None, line=None, reason=None, threats=None, offers=[],
    )
    applied = protocol.apply_move(room, move)
    assert applied is not None and applied["game"]["moves"] == ["a1", "b2"] and applied["version"] == 6
    assert protocol.apply_move(room, {**move, "version": 7}) is None  # a gap: ask for the room
    assert protocol.apply_move(room, {**move, "game": "other"}) is None
    assert protocol.apply_move(room, {**move, "ply": 3}) is None
    assert room["game"]["moves"] == ["a1"]  # the last room frame is left as it was


# --- joins ---------------------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_frames_sent_to_a_room_grow_linearly_with_joins(monkeypatch):
    # One refresh of the count at the first join, then all the others coalesced into one.
    monkeypatch.setattr(presence, "COALESCE_SECONDS", 3600.0)
    joins = 30
    code, a, b = await seated_pair(ranked=False)
    before = {id(a): len(a.log), id(b): len(b.log)}
    spectators = [await Client(code, None).connect() for _ in range(joins)]
    await lobby_loop().presence.settle()
    everyone = [a, b, *spectators]
    for client in everyone:
        await client.wait_room(lambda r: r["spectators"] == joins)
        await client.send(type="ping")
        await client.wait("pong")
    def received(client: Client, kind: str) -> int:
        return sum(1 for f in client.log[before.get(id(client), 0):] if f["type"] == kind)

    # Each joiner gets the whole room once, its own; the players get no room at all: the count comes as
    # a small frame, the first join's refresh (to at most three sockets) and one refresh for all.
    assert [received(c, "room") for c in everyone] == [0, 0, *[1] * joins]
    assert all(1 <= received(c, "spectators") <= 2 for c in everyone), [received(c, "spectators") for c in everyone]
    # (one full room to every connection per join would be joins * (joins + 3) / 2 = 495 frames)
    for client in everyone:
        await client.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_a_spectator_who_sits_down_stops_counting_as_one():
    ann, ann_key = await make_player_async("Ann")
    _carl, carl_key = await make_player_async("Carl")
    code = await make_room_async(ann)
    a = await Client(code, ann_key).connect()
    c = await Client(code, carl_key).connect()
    await lobby_loop().presence.settle()
    await a.wait_room(lambda r: r["spectators"] == 1)
    await c.send(type="sit")
    room = await a.wait_room(lambda r: r["seats"][1]["player"] is not None)
    assert room["spectators"] == 0  # counted again with the change itself, not left for a later join
    await a.close()
    await c.close()


@pytest.mark.django_db
def test_a_move_writes_the_rooms_activity_time_at_most_once_a_minute():
    code, ann, bob = two_players_in_a_game()
    room = Room.objects.get(code=code)
    start, version = room.last_activity_at, room.version
    game_drop(code=code, player=ann, peg="a1", ply=0, now=start + ACTIVITY_GRANULARITY)
    room = Room.objects.get(code=code)
    assert (room.last_activity_at, room.version) == (start, version + 1)  # the same minute: left as it was
    later = start + ACTIVITY_GRANULARITY + timedelta(seconds=1)
    game_drop(code=code, player=bob, peg="b1", ply=1, now=later)
    room = Room.objects.get(code=code)
    assert (room.last_activity_at, room.version) == (later, version + 2)


@pytest.mark.postgres
@pytest.mark.django_db
def test_on_postgresql_a_moves_room_update_adds_no_index_entries():
    """Moves within a minute leave every indexed column of the room as it was: PostgreSQL updates its
    row in place of the index (a heap-only tuple), and no dead index entry piles up between vacuums."""
    code, ann, bob = two_players_in_a_game()
    now = Room.objects.get(code=code).last_activity_at

    def room_updates() -> tuple[int, int]:
        with connection.cursor() as cursor:  # this transaction's own counts, at once
            cursor.execute("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables WHERE relname = %s",
                           [Room._meta.db_table])
            return cursor.fetchone()

    before = room_updates()
    for ply, peg in enumerate(["a1", "b1", "a1", "b1", "a1", "b1"]):
        game_drop(code=code, player=(ann, bob)[ply % 2], peg=peg, ply=ply, now=now + timedelta(seconds=ply + 1))
    updated, hot = (after - earlier for after, earlier in zip(room_updates(), before, strict=True))
    assert updated == 6 and hot == 6
