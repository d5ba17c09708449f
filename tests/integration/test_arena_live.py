"""An arena across two real daphne processes on PostgreSQL + Redis.

22 players (half on each process; more than a page of standings) join an arena, play legal moves in the
rooms it pairs them into (each player mostly stacks a peg of its choice, else plays at random: games of
about a dozen plies, either side winning), some pause for a while and come back, some withdraw. The test
ends the arena (its end time, in the database) a few seconds after the last of them came back or
withdrew, and not before ARENA_SECONDS: as short as the evening allows, however slow the machine. At the
end every game is counted once, nobody played two games at once, and the standings equal the standings
recomputed from the games list. The servers analyse no finished game: no analysis is read here."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import random
import time
from collections import Counter, defaultdict
from typing import Any

import psycopg
import pytest
import websockets

from harness.room import RoomSocket, ws_base
from tests.livekit import Device
from tests.pairkit import SHARED
from tournaments.scoring import ArenaGameResult, tallies_from_games
from tournaments.selectors import STANDINGS_PAGE

# The shared pair of servers (tests/pairkit.py: an arena pairs every second there).
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, SHARED]

# More than a page of standings (STANDINGS_PAGE, 20): they are read across two. (30 before: 34 s of CPU
# for the test alone against 25 s with 22, the same evening.)
PLAYERS = 22
# At least, from the last player's arrival: each player plays several games of a few seconds (15 before: 10
# is as long as a withdrawer's three games and a pauser's two and the pause take anyway, on a quiet machine).
ARENA_SECONDS = 10
END_AFTER_SECONDS = 3  # the arena's end once every pauser came back and every withdrawer withdrew
PAUSE_SECONDS = 3
PEGS = [f"{c}{r}" for c in "abcd" for r in "1234"]


@pytest.fixture
def two_servers(shared_pair):
    return shared_pair.url, shared_pair.servers


def create_arena(device: Device) -> int:
    """An account creates a 10-minute arena (the shortest one may create); ``end_arena_in`` cuts it."""
    device.request("GET", "/api/session")
    device.expect("POST", "/api/accounts/register", {"username": "organiser", "password": "correct horse battery"})
    arena = device.expect("POST", "/api/tournaments", {"name": "Live", "starts_at": None, "minutes": 10,
                                                      "turn_seconds": 30, "ranked": True, "berserk": True})
    return int(arena["id"])


def end_arena_in(url: str, arena_id: int, seconds: float) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE tournaments_arena SET ends_at = now() + make_interval(secs => %s), minutes = 3"
                     " WHERE id = %s", (seconds, arena_id))


def next_peg(moves: list[str], favourite: str, rng: random.Random) -> str:
    """Three times in four the player's favourite peg while it has room (four of one colour up a peg win),
    else a random one with room."""
    heights = Counter(moves)
    if heights[favourite] < 4 and rng.random() < 0.75:
        return favourite
    return rng.choice([peg for peg in PEGS if heights[peg] < 4])


async def play_game(device: Device, code: str, rng: random.Random) -> None:
    """Play legal moves in room ``code`` (``next_peg``, a favourite peg drawn for the game) until its game
    is over."""
    favourite = rng.choice(PEGS)
    room = RoomSocket.of(device, code, keep_log=False)
    await room.connect(follow=True, ping_every=5)
    try:
        while True:
            state = await room.wait_room(lambda r: r["game"] is not None and (
                r["game"]["status"] != "playing" or r["game"]["to_move_seat"] == (r.get("you") or {}).get("seat")),
                timeout=90)
            game = state["game"]
            if game["status"] != "playing":
                return
            await asyncio.sleep(rng.uniform(0.02, 0.3))
            with contextlib.suppress(websockets.ConnectionClosed):
                await room.drop(next_peg(game["moves"], favourite, rng))
            await room.wait_room(lambda r, ply=game["ply"]: r["game"]["ply"] > ply or r["game"]["status"] != "playing",
                                 timeout=90)
    finally:
        await room.close()


async def player(device: Device, arena_id: int, role: str, clock: dict[str, float], rng: random.Random,
                 log: dict[str, Any]) -> None:
    """One player's evening: join, play every game the arena pairs until the arena frame says it finished
    (once its last game is over; at the latest 60 s past its end, ``clock``'s "ends_at", on the monotonic
    clock, set by ``end_when_done``); ``pause``: pause after the second game for PAUSE_SECONDS and come
    back; ``withdraw``: withdraw after the third."""
    headers = {"Origin": device.base, "Cookie": device.cookie_header()}
    url = f"{ws_base(device.base)}/ws/tournaments/{arena_id}/"
    async with websockets.connect(url, additional_headers=headers, ping_interval=None, max_queue=None) as ws:
        await asyncio.to_thread(device.expect, "POST", f"/api/tournaments/{arena_id}/join")
        games = 0
        played = log["played"][device.player_id]
        while not clock["finished"] and time.monotonic() < clock["ends_at"] + 60:
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
            except TimeoutError:
                continue
            log["frames"][frame["type"]] += 1
            # A pairing comes as "paired"; the arena frame's "me.game" says it too, should that message be
            # lost (the channel layer delivers at most once): as the page does, either one takes the player in.
            found = frame if frame["type"] == "paired" else ((frame.get("me") or {}).get("game") or None)
            if found is None or found["game"] in played:
                if frame["type"] == "tournament" and frame["status"] == "finished":
                    return
                continue
            played.add(found["game"])
            log["paths"][frame["type"]] += 1
            await play_game(device, found["code"], rng)
            games += 1
            if role == "pause" and games == 2:
                await asyncio.to_thread(device.expect, "POST", f"/api/tournaments/{arena_id}/pause")
                await asyncio.sleep(PAUSE_SECONDS)
                await asyncio.to_thread(device.expect, "POST", f"/api/tournaments/{arena_id}/join")
                log["came_back"].add(device.player_id)
            if role == "withdraw" and games == 3:
                await asyncio.to_thread(device.expect, "POST", f"/api/tournaments/{arena_id}/withdraw")
                log["withdrawn_at"][device.player_id] = time.time()
                return


async def end_when_done(url: str, arena_id: int, roles: list[str], devices: list[Device], log: dict[str, Any],
                        clock: dict[str, float], timeout: float = 240) -> None:
    """End the arena END_AFTER_SECONDS after every pauser came back and every withdrawer withdrew (at
    ``timeout`` whatever they did: the test's assertions say what was missing), ARENA_SECONDS after the
    start at the soonest; then wait until it finished (its last game over) and say so in ``clock``."""
    start = time.monotonic()
    pausers = {d.player_id for role, d in zip(roles, devices, strict=True) if role == "pause"}
    withdrawers = {d.player_id for role, d in zip(roles, devices, strict=True) if role == "withdraw"}
    while time.monotonic() - start < timeout and not (
            log["came_back"] >= pausers and set(log["withdrawn_at"]) >= withdrawers):
        await asyncio.sleep(0.5)
    await asyncio.sleep(max(0.0, ARENA_SECONDS - (time.monotonic() - start)))
    await asyncio.to_thread(end_arena_in, url, arena_id, END_AFTER_SECONDS)
    clock["ends_at"] = time.monotonic() + END_AFTER_SECONDS
    await wait_finished(devices[0], arena_id)  # should a player's last arena frame not come
    clock["finished"] = 1


async def wait_finished(device: Device, arena_id: int, timeout: float = 240) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        arena = await asyncio.to_thread(device.expect, "GET", f"/api/tournaments/{arena_id}")
        if arena["status"] == "finished":
            return dict(arena)
        await asyncio.sleep(0.5)
    raise AssertionError("the arena did not finish")


def all_standings(device: Device, arena_id: int) -> list[dict[str, Any]]:
    first = device.expect("GET", f"/api/tournaments/{arena_id}")
    rows = list(first["standings"])
    for page in range(2, first["pages"] + 1):
        rows += device.expect("GET", f"/api/tournaments/{arena_id}?page={page}")["standings"]
    return rows


async def test_twenty_two_players_two_processes_every_game_counted_once(two_servers):
    url, servers = two_servers
    assert PLAYERS > STANDINGS_PAGE  # the standings come in pages
    organiser = Device(servers[0].http)
    arena_id = await asyncio.to_thread(create_arena, organiser)
    rng = random.Random(22)
    roles = ["pause"] * 4 + ["withdraw"] * 3 + ["stay"] * (PLAYERS - 7)
    devices = []
    for i in range(PLAYERS):
        device = Device(servers[i % 2].http)
        device.player_id = (await asyncio.to_thread(device.join, f"P{i:02d}"))["id"]
        devices.append(device)
    log: dict[str, Any] = {"frames": Counter(), "withdrawn_at": {}, "played": defaultdict(set), "paths": Counter(),
                           "came_back": set()}
    clock = {"ends_at": math.inf, "finished": 0}  # until end_when_done ends the arena, and sees it finished
    await asyncio.gather(end_when_done(url, arena_id, roles, devices, log, clock),
                         *(player(d, arena_id, roles[i], clock, random.Random(rng.random()), log)
                           for i, d in enumerate(devices)))
    arena = await wait_finished(organiser, arena_id)
    listed = await asyncio.to_thread(organiser.expect, "GET", f"/api/tournaments/{arena_id}/games")

    # Every game of the arena is listed once, finished, and no game started after the end time.
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT id::text, red_player_id::text, yellow_player_id::text, started_at, finished_at, status"
            " FROM games_game WHERE tournament_id = %s", (arena_id,)).fetchall()
        arena_end = conn.execute("SELECT ends_at FROM tournaments_arena WHERE id = %s", (arena_id,)).fetchone()[0]
    assert len(listed) == len(rows) == len({g["game"] for g in listed}) >= PLAYERS
    assert all(status != "playing" for *_, status in rows)
    assert all(started < arena_end for _, _, _, started, _, _ in rows)
    # Nobody played two games at once.
    spans = defaultdict(list)
    for _, red, yellow, started, finished, _ in rows:
        spans[red].append((started, finished))
        spans[yellow].append((started, finished))
    for games in spans.values():
        games.sort()
        assert all(earlier[1] <= later[0] for earlier, later in itertools.pairwise(games))
    # The standings equal the standings recomputed from the games list (points, games, results).
    recomputed, points = tallies_from_games(ArenaGameResult(red=g["red"], yellow=g["yellow"], winner=g["winner"],
                                                            plies=g["plies"]) for g in listed)
    assert [(p["red"], p["yellow"]) for p in (g["points"] for g in listed)] == points
    standings = await asyncio.to_thread(all_standings, organiser, arena_id)
    assert len(standings) == PLAYERS == arena["players"] + len(log["withdrawn_at"])
    for row in standings:
        mine = recomputed[row["player"]["id"]]
        assert (row["score"], row["games"], row["wins"], row["draws"], row["losses"]) == (
            mine.score, mine.games, mine.wins, mine.draws, mine.losses)
    assert [row["rank"] for row in standings] == list(range(1, PLAYERS + 1))
    assert [r["score"] for r in standings] == sorted((r["score"] for r in standings), reverse=True)
    assert arena["podium"] == standings[:3]
    # The withdrawn were never paired after withdrawing; the socket sent standings and pairings.
    withdrawn = {row["player"]["id"] for row in standings if row["withdrawn"]}
    assert withdrawn == set(log["withdrawn_at"])
    # The evening happened as planned, short as the arena is: every pauser came back, every withdrawer left.
    by_role = defaultdict(set)
    for role, device in zip(roles, devices, strict=True):
        by_role[role].add(device.player_id)
    assert log["came_back"] == by_role["pause"] and withdrawn == by_role["withdraw"]
    # Every pairing reached both players, who played the game (a withdrawer may leave a last one unplayed).
    theirs = defaultdict(set)
    for g in listed:
        theirs[g["red"]].add(g["game"])
        theirs[g["yellow"]].add(g["game"])
    for player_id, games in theirs.items():
        played = log["played"][player_id]
        assert played <= games and (played == games or player_id in log["withdrawn_at"]), player_id
    # Whichever came first took them in: the "paired" frame, or an arena frame already showing the game.
    assert log["paths"]["paired"] > 0 and log["paths"].total() == sum(map(len, log["played"].values()))
    for server in servers:
        assert server.log_errors() == []
