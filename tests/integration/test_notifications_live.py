"""Notifications across two real processes on PostgreSQL and Redis: a challenge reaches the challenged's
replay page on the other process, accepting it takes both into the room with the game started, and a
challenge left unanswered expires (a short CHALLENGE_TTL_SECONDS) and its challenger is told, once."""

from __future__ import annotations

import asyncio

import pytest

from tests.livekit import Device, PlayerSocket, RoomSocket, postgres_redis_servers

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

PASSWORD = "four-in-a-row-3d!"
TTL_SECONDS = 6  # long enough for the first challenge's answer, short enough for the second's expiry


@pytest.fixture
def two_servers(tmp_path):
    with postgres_redis_servers(tmp_path, CHALLENGE_TTL_SECONDS=str(TTL_SECONDS)) as servers:
        yield servers


def account(server, username: str) -> Device:
    device = Device(server.http)
    device.request("GET", "/api/session")
    device.expect("POST", "/api/accounts/register", {"username": username, "password": PASSWORD}, ok=(201,))
    return device


def kinds(device: Device) -> list[str]:
    return [n["kind"] for n in device.expect("GET", "/api/notifications")["results"]]


async def test_a_challenge_reaches_the_other_process_is_accepted_into_the_room_or_expires(two_servers):
    one, two = two_servers
    ann, bob = account(one, "ann"), account(two, "bob")
    # Bob reads a replay on process two (its page's player socket); Ann waits on process one.
    bob_page = await PlayerSocket(two.ws, bob, two.http).connect()
    ann_page = await PlayerSocket(one.ws, ann, one.http).connect()

    made = ann.expect("POST", "/api/challenge/bob", {"turn_seconds": 30}, ok=(201,))
    told = await bob_page.wait("notification", timeout=10)
    challenge = told["notification"]["data"]["challenge"]
    assert (told["notification"]["kind"], told["unread"], challenge["id"]) == ("challenge", 1, made["id"])
    assert told["notification"]["text"] == "ann (1500?) challenges you: 30 s a move, casual."

    accepted = bob.expect("POST", f"/api/challenge/{challenge['id']}/accept")
    answer = await ann_page.wait("notification", timeout=10)
    assert answer["notification"]["kind"] == "challenge_accepted"
    assert answer["notification"]["url"] == f"/r/{accepted['room']}"
    rooms = [await RoomSocket(one.ws, accepted["room"], ann, one.http).connect(),
             await RoomSocket(two.ws, accepted["room"], bob, two.http).connect()]
    for room in rooms:
        shown = await room.wait_room(lambda r: r["game"] is not None)
        assert shown["game"]["status"] == "playing" and shown["game"]["id"] == accepted["game"]
        assert {seat["player"]["name"] for seat in shown["seats"]} == {"ann", "bob"}
    # Now in the room, the room socket carries Bob's notifications: Ann challenges him again.
    again = ann.expect("POST", "/api/challenge/bob", {"turn_seconds": 60}, ok=(201,))
    in_room = await rooms[1].wait("notification")
    assert in_room["notification"]["data"]["challenge"]["id"] == again["id"]

    # Nobody answers: it expires, and Ann (any page of hers) is told, once though both processes sweep.
    expired = await ann_page.wait("notification", timeout=TTL_SECONDS + 10)
    assert expired["notification"]["kind"] == "challenge_expired"
    assert expired["notification"]["data"]["challenge"]["status"] == "expired"
    assert ann.expect("GET", f"/api/challenge/{again['id']}/show")["status"] == "expired"
    assert bob.expect("GET", "/api/challenge") == {"in": [], "out": []}
    await asyncio.sleep(1.1)  # another sweep of each process, which must find nothing to expire
    assert kinds(ann) == ["challenge_expired", "challenge_accepted"]
    assert kinds(bob) == ["challenge", "challenge"]
    for socket in (*rooms, bob_page, ann_page):
        await socket.close()
