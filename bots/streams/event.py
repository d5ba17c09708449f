"""``GET /api/stream/event``: an account's events, one JSON object a line (docs/bots.md).

First a ``gameStart`` for each game it is playing and a ``challenge`` for each challenge waiting for an
answer; then whatever its account's group hears (``bots.events``): challenges made, canceled, declined,
games started and finished, from any process.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils import timezone

from bots.messages import AccountLine
from bots.selectors import event_stream_opening
from bots.streams.base import KEEP_ALIVE_SECONDS, Lines, Listener, ndjson, open_slot, stream_token, stream_view
from live.offload import offload
from players.models import Player


@stream_view
async def event_stream(request: HttpRequest) -> HttpResponseBase:
    token = await stream_token(request)
    slot = await open_slot("event", token)
    listener = Listener(token)
    return ndjson(_lines(token.player, listener), slot=slot, closing=listener.stop)


async def _lines(player: Player, listener: Listener) -> Lines:
    # Join first: whatever commits after the opening lines are read reaches the stream (a line may come
    # twice, never not at all).
    await listener.start()  # the account's group: its lines
    for line in await offload(event_stream_opening)(player=player, now=timezone.now()):
        yield line
    while True:
        message = await listener.next(KEEP_ALIVE_SECONDS)
        if message is None:
            yield None
        elif isinstance(message, AccountLine):
            yield message.line
