"""The server's texts on a socket are in its reader's language: a refusal's error frame (from the room's
rules, the wire format's parser, the engine), and a refusal sent to a whole room (the room closed), which
each socket writes in its own reader's language. The codes never change."""

from __future__ import annotations

import pytest
from django.utils import timezone

from live.offload import offload
from lobby.rooms.services import room_close
from players.preferences import preferences_change
from tests.roomkit import Client, make_player_async, make_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


async def reader(name: str, language: str | None) -> tuple[object, str]:
    player, key = await make_player_async(name)
    if language is not None:
        await offload(preferences_change)(player=player, changes={"language": language}, now=timezone.now())
    return player, key


async def test_an_error_frame_is_in_the_language_of_its_socket_and_a_room_wide_one_in_each_readers():
    ann, ann_key = await reader("Ann", "ja")
    _bob, bob_key = await reader("Bob", "de")
    _cy, cy_key = await reader("Cy", None)
    code = await offload(make_room)(ann)
    ann_socket, bob_socket, cy_socket = [await Client(code, key).connect() for key in (ann_key, bob_key, cy_key)]

    await ann_socket.send_raw("{not json")  # the wire format's parser
    assert await ann_socket.error() == {"type": "error", "code": "bad_frame",
                                        "message": "フレームは正しいJSONでなければなりません。"}
    await ann_socket.send(type="drop", peg="x9", ply=0)  # the engine's refusal, translated where it is sent
    assert await ann_socket.error() == {"type": "error", "code": "bad_peg",
                                        "message": "「x9」は棒の名前ではありません。"}
    await bob_socket.send(type="start")  # the room's rules
    assert await bob_socket.error() == {"type": "error", "code": "not_host",
                                        "message": "Nur der Gastgeber kann die Partie starten."}
    await cy_socket.send(type="start")
    assert (await cy_socket.error())["message"] == "Only the host can start the game."

    await offload(room_close)(code=code, now=timezone.now())
    closed = {name: (await socket.error())["message"]
              for name, socket in (("ja", ann_socket), ("de", bob_socket), ("en", cy_socket))}
    assert closed == {"ja": f"ルーム {code} は閉じられました。", "de": f"Der Raum {code} wurde geschlossen.",
                      "en": f"Room {code} was closed."}
    for socket in (ann_socket, bob_socket, cy_socket):
        await socket.close()
