"""Room chat over the websocket: who reads what and when, history on connect, limits and errors."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer

from live.offload import offload
from lobby.chat.services import RATE_MESSAGES
from lobby.models import Connection, Room
from tests.roomkit import Client, make_player_async, seated_pair

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


async def joined(code: str, session_key: str | None) -> Client:
    """A connected client that has received its first room frame and the chat history after it."""
    client = await Client(code, session_key).connect()
    await client.wait("chat_history")
    return client


async def spectator(code: str, name: str = "Cy") -> Client:
    """A player who watches (no seat), connected."""
    _, key = await make_player_async(name)
    return await joined(code, key)


def texts(client: Client) -> list[str]:
    """What ``client`` was sent live, in order (phrases as their keys)."""
    return [f.get("text") or f["phrase"] for f in client.log if f["type"] == "chat"]


def histories(client: Client) -> list[list[str]]:
    return [[m.get("text") or m["phrase"] for m in f["messages"]] for f in client.log if f["type"] == "chat_history"]


async def said(client: Client, text: str) -> dict:
    return await client.wait("chat", lambda f: f.get("text") == text)


async def settle(*clients: Client) -> None:
    """Wait until every client has answered a ping: everything sent to it before is in its log."""
    for client in clients:
        await client.send(type="ping")
        await client.wait("pong")


@offload
def room_version(code: str) -> int:
    return Room.objects.get(code=code).version


@offload
def channel_of(code: str, player_id: str) -> str:
    return Connection.objects.get(room__code=code, player_id=player_id).channel_name


async def close(*clients: Client) -> None:
    for client in clients:
        await client.close()


async def test_the_history_follows_the_first_room_frame():
    code, a, b = await seated_pair()
    assert [f["type"] for f in a.log[:2]] == ["room", "chat_history"]
    assert a.log[1] == {"type": "chat_history", "messages": []}
    await a.send(type="say", chat="players", text="hello")
    await said(a, "hello")
    await b.send(type="say", chat="players", phrase="good_luck")
    await a.wait("chat", lambda f: f.get("phrase") == "good_luck")
    cy = await spectator(code)
    assert [f["type"] for f in cy.log[:2]] == ["room", "chat_history"]
    messages = cy.log[1]["messages"]
    assert [m.get("text") or m["phrase"] for m in messages] == ["hello", "good_luck"]
    assert messages[0]["type"] == "chat" and messages[0]["chat"] == "players"
    assert messages[0]["player"] == {"id": a.room["you"]["player"], "name": "Ann"}
    assert messages[1]["player"]["name"] == "Bob" and "text" not in messages[1]
    assert messages[0]["at"].endswith("Z") and messages[0]["id"] < messages[1]["id"]
    await close(a, b, cy)


async def test_the_players_chat_reaches_everyone_and_is_not_a_room_change():
    code, a, b = await seated_pair()
    cy = await spectator(code)
    anon = await joined(code, None)
    everyone = (a, b, cy, anon)
    for client in everyone:
        await client.wait_room(lambda r: r["spectators"] == 2)
    version = await room_version(code)
    frames_before = [len(client.log) for client in everyone]
    await b.send(type="say", chat="players", text="one more?")
    frames = [await said(client, "one more?") for client in everyone]
    assert len({f["id"] for f in frames}) == 1
    assert frames[0]["player"]["name"] == "Bob" and frames[0]["chat"] == "players"
    await settle(*everyone)
    assert await room_version(code) == version
    for client, before in zip(everyone, frames_before, strict=True):
        assert [f["type"] for f in client.log[before:]] == ["chat", "pong"]
    await close(*everyone)


async def test_the_spectators_chat_is_hidden_from_the_seated_during_a_game_and_shown_after():
    code, a, b = await seated_pair(ranked=False)
    cy = await spectator(code, "Cy")
    dee = await spectator(code, "Dee")
    await cy.send(type="say", chat="spectators", text="before")
    for client in (a, b, cy, dee):
        await said(client, "before")

    await a.send(type="start")
    for client in (a, b, cy, dee):
        await client.wait_room(lambda r: r["game"] is not None and r["game"]["status"] == "playing")
    await cy.send(type="say", chat="spectators", text="play c3!")
    await said(cy, "play c3!")
    await said(dee, "play c3!")
    await b.send(type="say", chat="players", text="good luck")  # sent after the spectators' message
    for client in (a, b, cy, dee):
        await said(client, "good luck")
    assert "play c3!" not in texts(a) and "play c3!" not in texts(b)
    assert histories(a) == [[]] and histories(b) == [[]]  # nothing re-sent while the game runs

    await a.send(type="resign")
    for seated in (a, b):
        history = await seated.wait("chat_history")
        assert seated.room["game"]["status"] == "resigned"  # right after the room frame of the game's end
        assert [m["text"] for m in history["messages"]] == ["before", "play c3!", "good luck"]
    await cy.send(type="say", chat="spectators", text="gg all")
    for client in (a, b, cy, dee):
        await said(client, "gg all")
    await settle(a, b, cy, dee)
    # The audience never needed the history again; nobody got a message twice.
    assert len(histories(cy)) == 1 and len(histories(dee)) == 1
    for client in (a, b, cy, dee):
        assert len(texts(client)) == len(set(texts(client)))
    assert "play c3!" not in texts(a) and "play c3!" not in texts(b)
    await close(a, b, cy, dee)


async def test_a_reconnect_receives_the_history_once_without_duplicates():
    code, a, b = await seated_pair()
    for text in ("one", "two", "three"):
        await a.send(type="say", chat="players", text=text)
        await said(b, text)
    await b.close()
    again = await joined(code, b.session_key)
    await a.send(type="say", chat="players", text="four")
    await said(again, "four")
    cy = await spectator(code)  # more room frames, reading rights unchanged: no history again
    await again.wait_room(lambda r: r["spectators"] == 1)
    await settle(again)
    assert histories(again) == [["one", "two", "three"]]
    assert texts(again) == ["four"]
    await close(a, again, cy)


async def test_a_message_already_in_the_history_is_not_sent_again_live():
    """A message committed between a connection joining the room's group and reading the history
    reaches it twice (in the history and from the group); the second copy is dropped."""
    code, a, b = await seated_pair()
    await a.send(type="say", chat="players", text="early")
    early = await said(b, "early")
    cy = await spectator(code)
    assert histories(cy) == [["early"]]
    late_copy = {key: value for key, value in early.items() if key != "type"}
    await get_channel_layer().send(
        await channel_of(code, cy.room["you"]["player"]), {"type": "room.chat", "message": late_copy, "game": None}
    )
    await a.send(type="say", chat="players", text="later")
    await said(cy, "later")
    assert texts(cy) == ["later"]
    await close(a, b, cy)


async def test_the_host_turns_the_spectators_chat_off_and_back_on():
    code, a, b = await seated_pair()
    cy = await spectator(code)
    await cy.send(type="say", chat="spectators", text="hi players")
    await said(a, "hi players")
    await a.send(type="rules", spectator_chat=False)
    for client in (a, b, cy):
        await client.wait_room(lambda r: r["rules"]["spectator_chat"] is False)
    await cy.send(type="say", chat="spectators", text="anyone?")
    assert (await cy.error())["code"] == "not_allowed"
    late = await spectator(code, "Dee")
    assert histories(late) == [[]]  # a chat that is off is not read either
    await a.send(type="rules", spectator_chat=True)
    for client in (a, b, cy, late):
        await client.wait_room(lambda r: r["rules"]["spectator_chat"] is True)
        assert (await client.wait("chat_history"))["messages"][-1]["text"] == "hi players"
    await close(a, b, cy, late)


@pytest.mark.parametrize(
    ("who", "frame", "code"),
    [
        ("seated", {"chat": "spectators", "text": "psst"}, "not_allowed"),
        ("spectator", {"chat": "players", "text": "let me play"}, "not_allowed"),
        ("seated", {"chat": "players", "text": "x" * 201}, "too_long"),
        ("seated", {"chat": "players", "text": " \n\t "}, "empty"),
        ("seated", {"chat": "players", "text": ""}, "empty"),
        ("seated", {"chat": "players", "phrase": "gl_hf"}, "bad_frame"),
        ("seated", {"chat": "everyone", "text": "hi"}, "bad_frame"),
        ("seated", {"text": "hi"}, "bad_frame"),
        ("seated", {"chat": "players"}, "bad_frame"),
        ("seated", {"chat": "players", "text": "hi", "phrase": "thanks"}, "bad_frame"),
        ("seated", {"chat": "players", "text": 42}, "bad_frame"),
        ("anonymous", {"chat": "spectators", "text": "hi"}, "no_player"),
    ],
)
async def test_refused_messages_are_answered_to_the_sender_alone(who, frame, code):
    room, a, b = await seated_pair()
    cy = await spectator(room)
    anon = await joined(room, None)
    sender = {"seated": a, "spectator": cy, "anonymous": anon}[who]
    await sender.send(type="say", **frame)
    error = await sender.error()
    assert error["code"] == code and error["message"]
    await settle(a, b, cy, anon)
    for client in (a, b, cy, anon):
        assert texts(client) == []
    await close(a, b, cy, anon)


async def test_the_rate_holds_across_a_players_tabs():
    code, a, b = await seated_pair()
    second_tab = await joined(code, a.session_key)
    for i in range(RATE_MESSAGES):
        await (a if i % 2 else second_tab).send(type="say", chat="players", text=f"m{i}")
        await said(b, f"m{i}")
    await second_tab.send(type="say", chat="players", text="too many")
    assert (await second_tab.error())["code"] == "rate_limited"
    await a.send(type="say", chat="players", phrase="thanks")
    assert (await a.error())["code"] == "rate_limited"
    await b.send(type="say", chat="players", text="my turn to talk")
    await said(a, "my turn to talk")
    await close(a, b, second_tab)

