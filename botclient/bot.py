"""A bot: its event stream, answering challenges by its policy, and a thread per game playing its engine.

Streams that fail are opened again after a pause (a new game stream starts with ``gameFull``, so nothing is
missed); a move the server refuses is logged and the game goes on (if the engine cannot move, the turn
timer has the site's CPU play that move).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from botclient.api import Api, ApiError
from botclient.engines import EngineFailed, LineEngine
from botclient.policy import Policy

log = logging.getLogger("botclient")

RECONNECT_SECONDS = (0.5, 1, 2, 5, 10)
# Kept back from a turn's deadline: the move's round trip and clock differences.
DEADLINE_MARGIN_MS = 2000
MIN_BUDGET_MS = 50
MOVE_ATTEMPTS = 3  # a move refused with rate_limited is sent again after Retry-After


def budget_ms(deadline: str | None, *, max_ms: int, now: datetime | None = None) -> int:
    """How long the engine may think: ``max_ms``, or less when the turn's ``deadline`` is closer."""
    if deadline is None:
        return max_ms
    left = datetime.fromisoformat(deadline) - (now or datetime.now(UTC))
    return max(MIN_BUDGET_MS, min(max_ms, int(left.total_seconds() * 1000) - DEADLINE_MARGIN_MS))


@dataclass
class Challenges:
    """Challenges this bot sends once its event stream is open: ``to`` usernames, with these rules."""

    to: Sequence[str] = ()
    turn_seconds: int = 30
    ranked: bool = False


@dataclass
class Bot:
    api: Api
    engine_command: Sequence[str]
    policy: Policy = field(default_factory=Policy)
    max_ms: int = 5000
    games: int | None = None  # stop after this many finished games (None: run until stopped)
    challenges: Challenges = field(default_factory=Challenges)
    stop: threading.Event = field(default_factory=threading.Event)
    finished: int = 0
    playing: dict[str, threading.Thread] = field(default_factory=dict)
    me: dict[str, Any] = field(default_factory=dict)

    def run(self) -> int:
        """Serve until ``games`` games finished or ``stop`` is set; 0, or 2 when the token is refused."""
        try:
            self.me = self.api.call("GET", "/api/bot/account")
        except ApiError as exc:
            log.error("the token is refused: %s", exc)
            return 2
        log.info("playing as %s (%s)", self.me["username"], self.me.get("title") or "not a bot")
        sent = False
        for attempt in _attempts(self.stop):
            try:
                events = self.api.events()
                if not sent:  # once listening: the challenge's answer cannot be missed
                    sent = True
                    self._send_challenges()
                for event in events:
                    self._on_event(event)
                    if self.stop.is_set():
                        break
                attempt.reset()
            except ApiError as exc:
                if exc.status in (401, 403):
                    log.error("the event stream is refused: %s", exc)
                    return 2
                log.warning("event stream refused: %s", exc)
            except OSError as exc:
                log.warning("event stream lost: %s", exc)
        for thread in list(self.playing.values()):
            thread.join(5)
        return 0

    def _send_challenges(self) -> None:
        for username in self.challenges.to:
            try:
                self.api.challenge(username, turn_seconds=self.challenges.turn_seconds, ranked=self.challenges.ranked)
            except (ApiError, OSError) as exc:
                log.warning("could not challenge %s: %s", username, exc)

    def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "challenge":
            self._answer(event["challenge"])
        elif kind == "gameStart":
            game = event["game"]
            if game["id"] not in self.playing:
                thread = threading.Thread(target=self._play, args=(game["id"], game["colour"]), daemon=True,
                                          name=f"game-{game['id'][:8]}")
                self.playing[game["id"]] = thread
                thread.start()
        elif kind == "gameFinish":
            game = event["game"]
            log.info("game %s over: %s, winner %s", game["id"], game["status"], game["winner"])
            self.finished += 1
            if self.games is not None and self.finished >= self.games:
                self.stop.set()

    def _answer(self, challenge: dict[str, Any]) -> None:
        if challenge["dest"]["id"] != self.me["id"]:
            return  # one we sent
        reason = self.policy.decline_reason(challenge)
        try:
            if reason is None:
                log.info("accepting challenge %s from %s", challenge["id"], challenge["challenger"]["name"])
                self.api.accept(challenge["id"])
            else:
                log.info("declining challenge %s (%s)", challenge["id"], reason)
                self.api.decline(challenge["id"], reason)
        except (ApiError, OSError) as exc:
            log.warning("could not answer challenge %s: %s", challenge["id"], exc)

    def _play(self, game_id: str, colour: str) -> None:
        engine = LineEngine(self.engine_command)
        try:
            GamePlayer(self.api, game_id, colour, engine.best_move, self.max_ms, self.stop).play()
        finally:
            engine.close()
            self.playing.pop(game_id, None)


@dataclass
class GamePlayer:
    api: Api
    game_id: str
    colour: str
    think: Callable[..., str]
    max_ms: int
    stop: threading.Event
    played_at_ply: int = -1

    def play(self) -> None:
        """Follow the game's stream and move on each of this bot's turns, until the game is over."""
        for attempt in _attempts(self.stop):
            try:
                for line in self.api.game(self.game_id):
                    state = line["state"] if line["type"] == "gameFull" else line
                    if state.get("type", "gameState") != "gameState" or "moves" not in state:
                        continue
                    if state["status"] != "playing":
                        return
                    self._turn(state)
                attempt.reset()
            except ApiError as exc:
                if exc.status in (401, 403, 404):
                    log.error("game %s: stream refused: %s", self.game_id, exc)
                    return
                log.warning("game %s: stream refused: %s", self.game_id, exc)
            except OSError as exc:
                log.warning("game %s: stream lost: %s", self.game_id, exc)

    def _turn(self, state: dict[str, Any]) -> None:
        moves = state["moves"].split()
        ply = len(moves)
        if (ply % 2 == 0) != (self.colour == "red") or ply == self.played_at_ply:
            return
        try:
            peg = self.think(moves, budget_ms=budget_ms(state.get("deadline"), max_ms=self.max_ms))
        except EngineFailed as exc:
            log.error("game %s: %s (the turn timer will move for us)", self.game_id, exc)
            return
        self.played_at_ply = ply
        for attempt in range(MOVE_ATTEMPTS):
            try:
                self.api.move(self.game_id, peg, ply=ply)
                return
            except ApiError as exc:
                if exc.code != "rate_limited" or attempt + 1 == MOVE_ATTEMPTS:
                    log.warning("game %s: move %s at ply %d refused: %s", self.game_id, peg, ply, exc)
                    return
                self.stop.wait(exc.retry_after)  # the same move, once the quota allows it (stale if too late)
            except OSError as exc:
                log.warning("game %s: move %s at ply %d not sent: %s", self.game_id, peg, ply, exc)
                return


class _Attempt:
    def __init__(self) -> None:
        self.failures = 0

    def reset(self) -> None:
        self.failures = 0


def _attempts(stop: threading.Event) -> Iterator[_Attempt]:
    """Attempts to (re)open a stream until ``stop``: each after a pause that grows with the failures."""
    attempt = _Attempt()
    while not stop.is_set():
        yield attempt
        if stop.is_set():
            return
        pause = RECONNECT_SECONDS[min(attempt.failures, len(RECONNECT_SECONDS) - 1)]
        attempt.failures += 1
        stop.wait(pause)
        time.sleep(0)
