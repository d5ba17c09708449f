"""Notifications: stored once in the notifier's transaction, paged newest first, marked read, limited; and
live on every socket of the player (a room's, the lobby's, the player socket), on commit only."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client as HttpClient

from config.asgi import application
from live.offload import offload
from notifications.models import Notification
from notifications.services import notify
from tests.lobbykit import LobbyClient
from tests.roomkit import Client, make_player, make_player_async, make_room

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def http_for(session_key: str) -> HttpClient:
    client = HttpClient(enforce_csrf_checks=False)
    client.cookies["sessionid"] = session_key
    return client


@pytest.mark.django_db
def test_a_page_is_newest_first_twenty_with_the_unread_count():
    player, key = make_player()
    for i in range(23):
        notify(player_id=player.pk, kind="followed", text=f"n{i}", url="/players/x", data={"i": i},
               now=NOW + timedelta(seconds=i))
    http = http_for(key)
    first = http.get("/api/notifications").json()
    assert first["unread"] == 23
    assert [n["text"] for n in first["results"]] == [f"n{i}" for i in range(22, 2, -1)]
    assert first["results"][0] == {"id": first["results"][0]["id"], "kind": "followed",
                                   "created_at": "2026-12-01T12:00:22.000Z", "read": False, "text": "n22",
                                   "url": "/players/x", "data": {"i": 22}}
    assert first["next"] == "/api/notifications?page=2"
    second = http.get(first["next"]).json()
    assert [n["text"] for n in second["results"]] == ["n2", "n1", "n0"] and second["next"] is None


@pytest.mark.django_db
def test_marking_read_by_ids_and_all_touches_only_ones_own():
    ann, ann_key = make_player("Ann")
    bob, _ = make_player("Bob")
    mine = [notify(player_id=ann.pk, kind="followed", text="t", now=NOW) for _ in range(3)]
    theirs = notify(player_id=bob.pk, kind="followed", text="t", now=NOW)
    assert mine[0] is not None and theirs is not None
    http = http_for(ann_key)
    answer = http.post("/api/notifications/read", {"ids": [mine[0].pk, theirs.pk]}, content_type="application/json")
    assert answer.status_code == 200 and answer.json() == {"unread": 2}
    assert Notification.objects.get(pk=theirs.pk).read_at is None
    assert http.post("/api/notifications/read", {"all": True}, content_type="application/json").json() == {"unread": 0}
    assert [n["read"] for n in http.get("/api/notifications").json()["results"]] == [True, True, True]


@pytest.mark.django_db
@pytest.mark.parametrize("body", [{}, {"ids": "1"}, {"ids": [True]}, {"ids": list(range(1, 102))}, {"all": 1},
                                  {"ids": [1], "all": True}, [1]])
def test_a_bad_read_body_is_a_400(body):
    _, key = make_player()
    answer = http_for(key).post("/api/notifications/read", body, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request"


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["0", "x", "51", "-1", "%C2%B2", "9" * 5000])  # "²".isdigit() is true
def test_a_bad_page_is_a_400(page):
    _, key = make_player()
    answer = http_for(key).get(f"/api/notifications?page={page}")
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request"


@pytest.mark.django_db
def test_without_a_player_the_page_is_empty_and_read_is_refused():
    http = HttpClient()
    assert http.get("/api/notifications").json() == {"unread": 0, "results": [], "next": None}
    answer = http.post("/api/notifications/read", {"all": True}, content_type="application/json")
    assert answer.status_code == 401 and answer.json()["code"] == "no_session"


@pytest.mark.django_db
def test_reads_are_limited_with_retry_after(settings):
    _, key = make_player()
    http = http_for(key)
    for _ in range(60):
        assert http.post("/api/notifications/read", {"all": True}, content_type="application/json").status_code == 200
    answer = http.post("/api/notifications/read", {"all": True}, content_type="application/json")
    assert answer.status_code == 429 and answer.json()["code"] == "rate_limited" and int(answer["Retry-After"]) >= 1


@pytest.mark.django_db
def test_pages_and_reads_are_limited_per_address_too(monkeypatch):
    from notifications import limits

    monkeypatch.setattr(limits, "PAGES_BY_ADDRESS", limits.Quota("notification-pages-by-address", 3, 60))
    monkeypatch.setattr(limits, "READS_BY_ADDRESS", limits.Quota("notification-reads-by-address", 3, 60))
    guests = [http_for(make_player()[1]) for _ in range(4)]  # fresh guests of one address cost nothing
    assert [g.get("/api/notifications").status_code for g in guests] == [200, 200, 200, 429]
    read = [g.post("/api/notifications/read", {"all": True}, content_type="application/json") for g in guests]
    assert [answer.status_code for answer in read] == [200, 200, 200, 429]
    assert read[-1].json()["code"] == "rate_limited" and int(read[-1]["Retry-After"]) >= 1


@pytest.mark.django_db
def test_a_key_makes_one_notification_and_keeps_the_transaction_usable():
    player, _ = make_player()
    with transaction.atomic():
        first = notify(player_id=player.pk, kind="arena_starting", text="a", key="arena_starting:1", now=NOW)
        again = notify(player_id=player.pk, kind="arena_starting", text="a", key="arena_starting:1", now=NOW)
        other = notify(player_id=player.pk, kind="arena_starting", text="b", key="arena_starting:2", now=NOW)
    assert first is not None and again is None and other is not None
    assert Notification.objects.filter(player=player).count() == 2


@pytest.mark.django_db
def test_an_unknown_kind_is_a_programming_error():
    player, _ = make_player()
    with pytest.raises(ValueError, match="no notification kind"):
        notify(player_id=player.pk, kind="nonsense", text="t", now=NOW)


# --- live ------------------------------------------------------------------------------------------------

async def player_socket(session_key: str | None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if session_key is not None:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    comm = WebsocketCommunicator(application, "/ws/player/", headers=headers)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    if session_key is not None:
        # The socket is accepted before it reads its player and joins their group; a frame answered says
        # that is done (the consumer handles its frames after its connect).
        await comm.send_json_to({"type": "ping"})
        assert await comm.receive_json_from(timeout=5) == {"type": "pong"}
    return comm


@offload
def notify_in_a_transaction(player_id: object, *, roll_back: bool) -> None:
    with transaction.atomic():
        notify(player_id=player_id, kind="followed", text="Bob follows you.", url="/players/b", now=NOW)
        if roll_back:
            transaction.set_rollback(True)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_every_socket_of_the_player_hears_a_committed_notification_once():
    ann, key = await make_player_async("Ann")
    code = await offload(make_room)(ann)
    room = await Client(code, key).connect()
    lobby = await LobbyClient(key).connect()
    alone = await player_socket(key)
    await notify_in_a_transaction(ann.pk, roll_back=True)  # rolled back: nobody hears of it
    await notify_in_a_transaction(ann.pk, roll_back=False)
    heard = [await room.wait("notification"), await lobby.wait("notification"),
             json.loads(await alone.receive_from(timeout=5))]
    for frame in heard:
        assert frame["type"] == "notification" and frame["unread"] == 1
        assert frame["notification"]["text"] == "Bob follows you." and frame["notification"]["kind"] == "followed"
    assert await alone.receive_nothing(timeout=0.2)
    await alone.send_to(text_data='{"type":"ping"}')
    assert json.loads(await alone.receive_from(timeout=5)) == {"type": "pong"}
    await alone.send_to(text_data='{"type":"seek"}')
    assert json.loads(await alone.receive_from(timeout=5))["code"] == "bad_frame"
    for socket in (room, lobby):
        await socket.close()
    await alone.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("runtime_cleanup")
async def test_the_player_socket_refuses_a_device_without_a_player():
    comm = await player_socket(None)
    assert json.loads(await comm.receive_from(timeout=5))["code"] == "no_player"
    assert (await comm.receive_output(timeout=5))["code"] == 4404
    await comm.disconnect()
