"""The streams' caps and ends, through the project's own ASGI application in this process (SQLite and the
in-memory channel layer; ``tests/integration/test_streams_live.py`` has them across processes).

A stream is capped per account and per process (``429 too_many_streams``); revoking its token, or banning,
closing or giving a new password to its account ends it at once (the account's group hears
``AccountStreamsEnd``), and a renewal of its slot that finds its token revoked ends it even when that message
never came.
"""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import ApplicationCommunicator
from django.core.cache import cache
from django.utils import timezone

from bots import limits
from bots.streams import event
from config.asgi import application
from config.http import is_stream
from players.models import AccessToken, Player
from players.services import player_ban
from players.tokens import token_revoke
from tests.bots.botkit import NOW, PASSWORD, Api, account, bot, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]

WAIT = 10.0  # a bound on a failure only: each end comes as soon as the loop runs it


class Stream:
    """One stream opened through ``config.asgi.application``: its response's start, then its body."""

    def __init__(self, path: str, secret: str) -> None:
        self.app = ApplicationCommunicator(application, {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
            "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
            "headers": [(b"host", b"localhost"), (b"authorization", f"Bearer {secret}".encode())],
            "client": ("127.0.0.1", 50000), "server": ("localhost", 80),
        })

    async def open(self) -> dict[str, Any]:
        """The response's start (and, for a 200, its first chunk read: the empty one that sends the headers)."""
        await self.app.send_input({"type": "http.request", "body": b"", "more_body": False})
        start: dict[str, Any] = await self.app.receive_output(WAIT)
        if start["status"] == 200:
            assert (await self.app.receive_output(WAIT))["body"] == b""
        return start

    async def ended(self) -> bool:
        """Whether the body ended (read up to its last chunk)."""
        while True:
            message = await self.app.receive_output(WAIT)
            if not message.get("more_body", False):
                return True

    async def close(self) -> None:
        await self.app.send_input({"type": "http.disconnect"})
        await self.app.wait(WAIT)


def token_of(player: Player, secret: str) -> AccessToken:
    return AccessToken.objects.get(player=player, hint=secret[-4:])


async def test_revoking_a_token_ends_its_streams_at_once_and_no_other(caplog):
    player = await sync_to_async(account)("leaky")
    leaked, kept = await sync_to_async(token_for)(player), await sync_to_async(token_for)(player)
    streams = [Stream("/api/stream/event", leaked), Stream("/api/stream/event", kept)]
    assert [(await s.open())["status"] for s in streams] == [200, 200]
    revoked = await sync_to_async(token_of)(player, leaked)
    await sync_to_async(token_revoke)(player=player, token_id=revoked.pk, now=NOW)
    assert await streams[0].ended()
    assert "a bot stream ended: the token was revoked" in caplog.messages  # by the message, not a failure
    assert await streams[1].app.receive_nothing(0.2)  # still open
    await streams[1].close()


async def test_a_ban_ends_every_stream_of_the_account_event_and_game_streams(caplog):
    cache.clear()
    robo, one = await sync_to_async(bot)("robo")
    _, two = await sync_to_async(bot)("bobo")
    made = (await sync_to_async(Api(one).post)("/api/challenge/bobo", {"turn_seconds": 60})).json()
    game = (await sync_to_async(Api(two).post)(f"/api/challenge/{made['id']}/accept")).json()["game"]
    streams = [Stream("/api/stream/event", one), Stream(f"/api/bot/game/stream/{game}", one)]
    assert [(await s.open())["status"] for s in streams] == [200, 200]
    await sync_to_async(player_ban)(player=robo, now=timezone.now())
    assert [await s.ended() for s in streams] == [True, True]
    # Each by the ban (the game stream may hear first that its room refuses it, as a room socket would).
    ends = [m for m in caplog.messages if m.startswith("a bot stream ended")]
    assert "a bot stream ended: the account was banned" in ends and len(ends) == 2
    assert not any("failure" in m or "banned" not in m for m in ends)


async def test_a_new_password_and_a_closing_end_every_stream_of_the_account(caplog):
    from accounts.deletion import account_delete
    from accounts.reset import password_change

    player = await sync_to_async(account)("owner")
    secret = await sync_to_async(token_for)(player)
    changed = Stream("/api/stream/event", secret)
    assert (await changed.open())["status"] == 200
    await sync_to_async(password_change)(player=player, current=PASSWORD, password="another-password-3d!",
                                         address="127.0.0.1", now=timezone.now())
    assert await changed.ended()  # the token still holds: the bot opens its stream again
    closed = Stream("/api/stream/event", secret)
    assert (await closed.open())["status"] == 200
    await sync_to_async(account_delete)(player=player, password="another-password-3d!", now=timezone.now())
    assert await closed.ended()
    ends = [m for m in caplog.messages if m.startswith("a bot stream ended")]
    assert ends == ["a bot stream ended: the account's password was changed",
                    "a bot stream ended: the account was closed"]


async def test_a_renewal_that_finds_the_token_revoked_ends_the_stream(monkeypatch, caplog):
    monkeypatch.setattr(event, "KEEP_ALIVE_SECONDS", 0.01)
    monkeypatch.setattr(limits, "SLOT_RENEW_SECONDS", 0.0)
    player = await sync_to_async(account)("quiet")
    secret = await sync_to_async(token_for)(player)
    stream = Stream("/api/stream/event", secret)
    assert (await stream.open())["status"] == 200
    # Revoked behind the service's back: no message comes, the next renewal finds it.
    await sync_to_async(AccessToken.objects.filter(player=player).update)(revoked_at=NOW)
    assert await stream.ended()
    assert "a bot stream ended: This access token was revoked or its account banned." in caplog.messages


def test_an_account_and_a_process_hold_a_bounded_number_of_streams(settings):
    player = account("busy")
    secret = token_for(player)
    for n in range(settings.BOT_EVENT_STREAMS_PER_ACCOUNT):
        limits.stream_slot_take(kind="event", player_id=player.pk, holder=f"h{n}")
    full = Api(token_for(player)).get("/api/stream/event")  # another token of the same account
    assert (full.status_code, full.json()["code"]) == (429, "too_many_streams") and full["Retry-After"]
    assert "at most 3 event streams" in full.json()["message"]
    # Game streams are counted apart (this one is refused for the game, not for the slots).
    assert Api(secret).get("/api/bot/game/stream/none").json()["code"] != "too_many_streams"

    settings.BOT_STREAMS_PER_PROCESS = limits.PROCESS_STREAMS.open
    other = Api(token_for(account("other"))).get("/api/stream/event")
    assert (other.status_code, other.json()["code"]) == (429, "too_many_streams")
    assert "This server holds" in other.json()["message"]
    assert limits.PROCESS_STREAMS.open == settings.BOT_STREAMS_PER_PROCESS  # a refusal holds nothing


def test_only_the_streams_get_past_the_http_threads():
    assert is_stream({"method": "GET", "path": "/api/stream/event"})
    assert is_stream({"method": "GET", "path": "/api/bot/game/stream/0b5e"})
    assert not is_stream({"method": "POST", "path": "/api/stream/event"})  # refused on the threads, as ever
    assert not is_stream({"method": "GET", "path": "/api/session"})
    assert not is_stream({"method": "GET", "path": "/stream/nowhere"})
