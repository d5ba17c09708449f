"""A bot's game stream is in its room as a room socket is (``lobby.realtime.presence.RoomPresence``, the
code both use): a connection of this process while it is open, hearing the room's group by typed message,
and on leaving, the close recorded with the room socket's retries (the stream once recorded it once)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.db import OperationalError
from django.utils import timezone

from bots.play import my_game
from bots.streams.game import GameStream
from live.offload import offload
from lobby.models import Connection
from lobby.realtime import presence
from lobby.realtime.loop import lobby_loop
from lobby.rooms import connections
from players.models import AccessToken, Player
from players.social import block_add
from tests.bots.botkit import Api, bot, token_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("runtime_cleanup")]


def bots_game_of_both() -> tuple[str, tuple[Player, Api], tuple[Player, Api]]:
    """A game between two bots: its id, then Red's and Yellow's player and API."""
    cache.clear()
    robo, one = bot("robo")
    bobo, two = bot("bobo")
    red, yellow = Api(one), Api(two)
    made = red.post("/api/challenge/bobo", {"turn_seconds": 60, "colour": "red"}).json()
    game_id = str(yellow.post(f"/api/challenge/{made['id']}/accept").json()["game"])
    return game_id, (robo, red), (bobo, yellow)


def bots_game() -> tuple[str, Player, Api]:
    """A game between two bots: (its id, Red's player, Red's API)."""
    game_id, (robo, red), _ = bots_game_of_both()
    return game_id, robo, red


@offload
def connections_of(channel_name: str) -> int:
    return Connection.objects.filter(channel_name=channel_name).count()


async def test_a_game_stream_joins_hears_and_leaves_its_room_like_a_room_socket(monkeypatch):
    monkeypatch.setattr(presence, "RECORD_CLOSE_RETRY_DELAYS", (0.01, 0.01))
    game_id, robo, red = await sync_to_async(bots_game)()
    token = await offload(AccessToken.objects.select_related("player").get)(player=robo)
    stream = GameStream(await offload(my_game)(game_id=game_id, player=robo), token)
    lines = stream.lines()
    assert (await anext(lines))["type"] == "gameFull"
    assert await anext(lines) == {"type": "opponentGone", "gone": True}  # Bobo has no stream open
    held = lobby_loop().presence.held
    assert held[stream.channel_name] is stream and await connections_of(stream.channel_name) == 1

    assert (await sync_to_async(red.post)(f"/api/bot/game/{game_id}/move/a1")).status_code == 200
    state = await anext(lines)  # the room's move message, read by attribute, as a line
    assert (state["type"], state["moves"], state["status"]) == ("gameState", "a1", "playing")

    real_close, calls = connections.connection_close, []

    def fails_once(**kwargs):  # type: ignore[no-untyped-def]
        calls.append(kwargs["channel_name"])
        if len(calls) == 1:
            raise OperationalError("database is locked")
        return real_close(**kwargs)

    monkeypatch.setattr(connections, "connection_close", fails_once)
    await stream.close()
    assert calls == [stream.channel_name] * 2  # retried, as a room socket's close is
    assert await connections_of(stream.channel_name) == 0 and stream.channel_name not in held
    await stream.close()  # once only
    assert len(calls) == 2


async def test_the_game_stream_carries_the_draw_offers_as_lichess_does():
    game_id, robo, red = await sync_to_async(bots_game)()
    yellow = await sync_to_async(lambda: Api(token_for(Player.objects.get(user__username="bobo"))))()
    token = await offload(AccessToken.objects.select_related("player").get)(player=robo)
    stream = GameStream(await offload(my_game)(game_id=game_id, player=robo), token)
    lines = stream.lines()
    full = await anext(lines)
    assert not any(full["state"][flag] for flag in ("rdraw", "ydraw", "rtakeback", "ytakeback"))
    await anext(lines)  # opponentGone
    assert (await sync_to_async(yellow.post)(f"/api/bot/game/{game_id}/draw/yes")).status_code == 200
    state = await anext(lines)
    assert (state["type"], state["ydraw"], state["rdraw"]) == ("gameState", True, False)
    answer = await sync_to_async(red.post)(f"/api/bot/game/{game_id}/draw/yes")  # accepts
    assert answer.status_code == 200
    state = await anext(lines)
    assert (state["status"], state["reason"], state["ydraw"]) == ("drawn", "agreement", False)
    await stream.close()


async def test_the_game_stream_leaves_out_the_chat_of_a_player_its_account_blocked():
    game_id, (robo, red), (bobo, yellow) = await sync_to_async(bots_game_of_both)()
    await offload(block_add)(blocker=robo, blocked_id=bobo.pk, now=timezone.now())
    token = await offload(AccessToken.objects.select_related("player").get)(player=robo)
    stream = GameStream(await offload(my_game)(game_id=game_id, player=robo), token)
    lines = stream.lines()
    assert (await anext(lines))["type"] == "gameFull"
    assert (await anext(lines))["type"] == "opponentGone"
    for api, text in ((yellow, "from bobo"), (red, "from robo")):
        said = await sync_to_async(api.post)(f"/api/bot/game/{game_id}/chat", {"room": "player", "text": text})
        assert said.status_code == 200, said.content
    line = await anext(lines)
    assert (line["type"], line["text"]) == ("chatLine", "from robo")  # Bobo's message never came
    await stream.close()
