"""The bot API's limits: moves per second per account in one game, open streams per account and
challenges created per challenger and per address in an hour (``CHALLENGES_PER_HOUR_PER_PLAYER``,
``CHALLENGES_PER_HOUR_PER_ADDRESS``, read at each call), counted in Django's cache (Redis when
``REDIS_URL`` is set, so they hold across processes); open streams per server process, counted in the
process.

A stream holds a *slot*: a cache key taken atomically (``add``), renewed while the stream lives and
deleted when it ends; a process that dies leaves its slots to lapse within ``SLOT_LEASE_SECONDS``. Each
renewal also asks whether the stream's token is still live (not revoked, its account not banned): a
stream whose token was revoked or banned is ended by a message at once (``bots.events``), and at the
latest at its next renewal should that message be lost.
"""

from __future__ import annotations

import threading
import uuid
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext, ngettext

from common.errors import RateLimited, Refused
from common.ratelimit import Quota, player_and_address, quota_take
from players.tokens import token_is_live

# Per account and game: a bot moves once a turn, so two engines answering at once make about 7 a second each
# (the round trips between them); more is a bot hammering a refusal. Many games at once are not slowed. The
# account, not the token (an account has up to 20), and the game's parsed id, not its text (a UUID has many
# spellings: upper case, braces, no dashes, ``urn:uuid:``), so neither opens a second bucket.
MOVES_PER_SECOND = 10
MOVES = Quota("bot-moves-by-account-game", MOVES_PER_SECOND, 1)
SLOT_LEASE_SECONDS = 30
SLOT_RENEW_SECONDS = 10.0
HOUR = 3600


def move_quota_take(*, player_id: str, game_id: str, now: datetime) -> None:
    """Count one move (refused ones too) of the account in one game. An id that names no game at all is
    counted in one bucket of the account's (it is refused as ``no_game`` anyway).

    Raises:
        RateLimited: more than ``MOVES_PER_SECOND`` in a second.
    """
    try:
        game = str(uuid.UUID(game_id))
    except ValueError:
        game = "not-a-game"
    quota_take(cache, [(MOVES, f"{player_id}:{game}")], now=now, message=gettext("Too many moves."))


def challenge_create_quota_take(*, player_id: str, address: str | None, now: datetime) -> None:
    """Count one new challenge against the challenger and the client address (refused ones too: a
    create-and-cancel loop is what this stops).

    Raises:
        RateLimited: a quota is spent (nothing was counted).
    """
    takes = player_and_address("challenges", player_id=player_id, per_player=settings.CHALLENGES_PER_HOUR_PER_PLAYER,
                               address=address, per_address=settings.CHALLENGES_PER_HOUR_PER_ADDRESS,
                               window_seconds=HOUR)
    quota_take(cache, takes, now=now, message=gettext("Too many challenges."))


def streams_per_account(kind: str) -> int:
    """How many streams of ``kind`` (``event``, ``game``) one account may hold open (settings)."""
    return int(settings.BOT_EVENT_STREAMS_PER_ACCOUNT if kind == "event" else settings.BOT_GAME_STREAMS_PER_ACCOUNT)


def _slot_key(kind: str, player_id: object, index: int) -> str:
    return f"bot-stream:{kind}:{player_id}:{index}"


def stream_slot_take(*, kind: str, player_id: object, holder: str) -> str:
    """Take a free stream slot of ``kind`` for the account; returns its key.

    Raises:
        RateLimited(too_many_streams): every slot of that kind is held.
    """
    most = streams_per_account(kind)
    for index in range(most):
        key = _slot_key(kind, player_id, index)
        if cache.add(key, holder, timeout=SLOT_LEASE_SECONDS):
            return key
    message = (ngettext("An account may hold at most %(most)d event stream open: close one first.",
                        "An account may hold at most %(most)d event streams open: close one first.", most)
               if kind == "event" else
               ngettext("An account may hold at most %(most)d game stream open: close one first.",
                        "An account may hold at most %(most)d game streams open: close one first.", most))
    raise RateLimited(SLOT_LEASE_SECONDS, code="too_many_streams", message=message % {"most": most})


def stream_slot_renew(key: str, holder: str, *, token_id: int) -> None:
    """Hold the slot for another lease, if the stream's token is still live.

    Raises:
        Refused(bad_token): the token was revoked or its account banned since the stream opened.
    """
    if not token_is_live(token_id):
        raise Refused("bad_token", gettext("This access token was revoked or its account banned."))
    cache.set(key, holder, timeout=SLOT_LEASE_SECONDS)


def stream_slot_release(key: str, holder: str) -> None:
    if cache.get(key) == holder:  # not a slot that lapsed and was taken by another stream since
        cache.delete(key)


class ProcessStreams:
    """The streams open in this process, at most ``BOT_STREAMS_PER_PROCESS`` (settings) at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0

    def take(self) -> None:
        """Count one more open stream.

        Raises:
            RateLimited(too_many_streams): the process holds as many as it may.
        """
        most = int(settings.BOT_STREAMS_PER_PROCESS)
        with self._lock:
            if self.open >= most:
                message = ngettext("This server holds %(most)d stream open, as many as it may.",
                                   "This server holds %(most)d streams open, as many as it may.", most)
                raise RateLimited(SLOT_LEASE_SECONDS // 3, code="too_many_streams", message=message % {"most": most})
            self.open += 1

    def release(self) -> None:
        with self._lock:
            self.open -= 1


PROCESS_STREAMS = ProcessStreams()
