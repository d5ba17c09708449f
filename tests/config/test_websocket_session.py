"""config.websocket: a websocket's consumer gets the session cookie's value, and nothing else of the session."""

from __future__ import annotations

import pytest

from config.websocket import SessionKeyMiddleware, session_key
from tests.roomkit import Client, make_player_async, make_room_async


@pytest.mark.parametrize(("headers", "key"), [
    ([], None),
    ([(b"cookie", b"csrftoken=abc")], None),
    ([(b"cookie", b"csrftoken=abc; sessionid=k3y")], "k3y"),
    ([(b"host", b"x"), (b"cookie", b"sessionid=")], None),
    ([(b"cookie", b"sessionid=\xe9t\xe9")], None),  # latin-1: never a decoding error, and no key
    ([(b"cookie", b"sessionid=abc\x00defgh")], None),  # never sent to the database
    ([(b"cookie", b"sessionid=abc%3Bdef")], None),
])
def test_the_session_key_is_read_from_the_cookie_header(headers, key):
    assert session_key(headers) == key


async def test_the_inner_application_sees_the_key_in_a_scope_of_its_own():
    seen = {}

    async def inner(scope, receive, send):
        seen.update(scope)

    scope = {"type": "websocket", "headers": [(b"cookie", b"sessionid=abc")]}
    await SessionKeyMiddleware(inner)(scope, None, None)
    assert seen["session_key"] == "abc" and "session_key" not in scope and "session" not in seen


@pytest.mark.django_db(transaction=True)
async def test_a_room_socket_knows_its_player_from_the_session_cookie():
    host, key = await make_player_async("Host")
    code = await make_room_async(host)
    for session, player in ((key, str(host.id)), (None, None), ("no-such-session", None), (key + "\x00", None)):
        client = await Client(code, session).connect()
        you = client.room["you"]
        assert you["player"] == player
        await client.close()
