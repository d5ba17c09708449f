"""``GET /api/bot/game/stream/{id}``: one game as its player sees it, one JSON object a line (docs/bots.md).

``gameFull`` first, then a ``gameState`` after every move and at the end (the stream ends after it),
``chatLine`` for the chat the player may read, ``opponentGone`` when the opponent's connection comes and
goes. It listens to the room's group (what the room's sockets hear, from any process) and translates.

While it is open the player's seat counts as connected, exactly as a room socket does: it joins and
leaves the room with the room socket's own code (``lobby.realtime.presence.RoomPresence``: the room's
group, a connection of this process, held by its presence loop, the close's record retried), so a process
that dies has it swept and the seat shows disconnected (and after the grace period the CPU stands in).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils import timezone

from bots import protocol
from bots.play import MyGame, my_game
from bots.selectors import game_full_line, game_row, state_of
from bots.streams.base import KEEP_ALIVE_SECONDS, Lines, Listener, ndjson, open_slot, stream_token, stream_view
from games.models import GameStatus
from live.messages import Message
from live.offload import offload
from lobby.chat.visibility import ChatView
from lobby.protocol import messages
from lobby.realtime.loop import lobby_loop
from lobby.realtime.presence import RoomPresence
from players.models import AccessToken
from players.social import hidden_by


@stream_view
async def game_stream(request: HttpRequest, game_id: str) -> HttpResponseBase:
    token = await stream_token(request)
    mine = await offload(my_game)(game_id=game_id, player=token.player)
    slot = await open_slot("game", token)
    stream = GameStream(mine, token)
    return ndjson(stream.lines(), slot=slot, closing=stream.close)


class GameStream:
    """One open game stream: what it has said, and its connection to the room (see the module docstring)."""

    def __init__(self, mine: MyGame, token: AccessToken) -> None:
        self.mine, self.player = mine, token.player
        self.code = mine.code
        self.game_id = str(mine.game.pk)
        self.red_seat = mine.game.red_seat
        self.my_seat = mine.game.seat_of_colour(mine.colour)
        self.listener = Listener(token)
        lobby = lobby_loop()
        self.room_presence = RoomPresence(self, presence=lobby.presence, outbox=lobby.outbox,
                                          layer=self.listener.layer)
        self.channel_name = ""
        self.state: dict[str, Any] = {}
        self.opponent_gone: bool | None = None
        self.number = mine.game.number
        self.hidden: frozenset[str] = frozenset()  # whose chat is not sent: those the account blocked

    # --- presence (lobby.realtime.presence.Held) ------------------------------------------------------
    async def reopen(self, process: str) -> None:
        """This process was swept while the stream was open: record the connection again."""
        opened = await offload(self.room_presence.record)(self.player, process)
        self.snapshot_seen(opened.snapshot)
        self.room_presence.shown(opened)

    async def close(self) -> None:
        await self.room_presence.leave()
        await self.listener.stop()

    # --- lines ----------------------------------------------------------------------------------------
    async def lines(self) -> Lines:
        await self.listener.start()
        self.channel_name = self.listener.channel
        if self.mine.game.status == GameStatus.PLAYING:
            opened = await self.room_presence.join(lambda process: self.room_presence.record(self.player, process))
            self.opponent_gone = self._gone(opened.snapshot)
            self.room_presence.shown(opened)
        self.hidden = await offload(hidden_by)(self.player)
        full = await offload(game_full_line)(self.mine, now=timezone.now())
        self.state = {"type": "gameState", **full["state"]}
        yield full
        if self.opponent_gone:
            yield protocol.opponent_gone(True)
        while self.state["status"] == GameStatus.PLAYING:
            message = await self.listener.next(KEEP_ALIVE_SECONDS)
            if message is None:
                yield None
                continue
            for line in await self._translate(message):
                yield line

    async def _translate(self, message: Message) -> list[dict[str, Any]]:
        match message:
            case messages.RoomMove(text=text):
                frame = json.loads(text)
                if frame["game"] != self.game_id or frame["ply"] <= self.state["ply"]:
                    return []
                if frame["ply"] != self.state["ply"] + 1:  # a gap (a message lost): read the game
                    return await self._resync()
                moves = [*self.state["moves"].split(), frame["peg"]]
                winner = protocol.winner_colour(winner_seat=frame["winner_seat"], red_seat=self.red_seat)
                return self._new_state(protocol.game_state(moves=moves, status=frame["status"], winner=winner,
                                                           reason=frame["reason"], deadline=frame["deadline"],
                                                           offers=frame["offers"], red_seat=self.red_seat))
            case messages.RoomSnapshot(snapshot=snapshot):
                return self.snapshot_seen(snapshot) + await self._game_in(snapshot)
            case messages.RoomChat(message=chat) if chat["player"]["id"] in self.hidden:
                return []
            case messages.RoomBlocks():
                self.hidden = await offload(hidden_by)(self.player)
            case messages.RoomChat(message=chat, game=game):
                view = ChatView(seated=True, game_number=self.number, playing=self.state["status"] == "playing",
                                spectator_chat=True)
                return [protocol.chat_line(chat)] if view.delivers(chat=chat["chat"], written_in_game=game) else []
            case messages.RoomRefuse():  # the room closed: the game was abandoned
                return await self._resync()
        return []

    def snapshot_seen(self, snapshot: dict[str, Any]) -> list[dict[str, Any]]:
        """The opponent's presence in ``snapshot``: an ``opponentGone`` line when it changed."""
        gone = self._gone(snapshot)
        if gone is None or gone == self.opponent_gone:
            return []
        self.opponent_gone = gone
        return [protocol.opponent_gone(gone)]

    def _gone(self, snapshot: dict[str, Any]) -> bool | None:
        seat = next((s for s in snapshot["seats"] if s["seat"] == 3 - self.my_seat), None)
        if seat is None or seat["player"] is None or seat["cpu"]:
            return None
        return not seat["connected"]

    async def _game_in(self, snapshot: dict[str, Any]) -> list[dict[str, Any]]:
        game = snapshot.get("game")
        if game is None or game["id"] != self.game_id:
            return []
        if (len(game["moves"]) != self.state["ply"] or game["status"] != self.state["status"]
                or self._offers_of(game) != self._offers_of(self.state)):  # a takeback, an offer
            return await self._resync()
        return []

    def _offers_of(self, game: dict[str, Any]) -> tuple[bool, ...]:
        """The offers a snapshot's ``game`` (or a ``gameState``) shows, as the gameState's four flags."""
        if "offers" in game:
            game = protocol.game_state(moves=[], status="", winner=None, reason=None, deadline=None,
                                       offers=game["offers"], red_seat=self.red_seat)
        return tuple(bool(game[flag]) for flag in protocol.OFFER_FLAGS)

    async def _resync(self) -> list[dict[str, Any]]:
        return self._new_state(state_of(await offload(game_row)(self.game_id)))

    def _new_state(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        if (state["moves"], state["status"], self._offers_of(state)) == (
                self.state["moves"], self.state["status"], self._offers_of(self.state)):
            return []
        self.state = state
        return [state]
