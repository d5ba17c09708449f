"""The bot API's limits, counted in Django's cache (Redis when ``REDIS_URL`` is set, so they hold across
processes): moves per second per account in one game, open streams per token, and challenges created per
challenger and per address in an hour (``CHALLENGES_PER_HOUR_PER_PLAYER``, ``CHALLENGES_PER_HOUR_PER_ADDRESS``,
read at each call).

A stream holds a *slot*: a cache key taken atomically (``add``), renewed while the stream lives and
deleted when it ends; a process that dies leaves its slots to lapse within ``SLOT_LEASE_SECONDS``.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.conf import settings
from django.core.cache import cache

from common.errors import RateLimited
from common.ratelimit import Quota, quota_take

# Per account and game: a bot moves once a turn, so two engines answering at once make about 7 a second each
# (the round trips between them); more is a bot hammering a refusal. Many games at once are not slowed. The
# account, not the token (an account has up to 20), and the game's parsed id, not its text (a UUID has many
# spellings: upper case, braces, no dashes, ``urn:uuid:``), so neither opens a second bucket.
MOVES_PER_SECOND = 10
MOVES = Quota("bot-moves-by-account-game", MOVES_PER_SECOND, 1)
# Open streams per token, by kind: event streams (one a bot needs; a second covers a reconnect before the
# first's end is noticed) and game streams (one per game played at once, and reconnects).
STREAMS_PER_TOKEN = {"event": 2, "game": 16}
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
    quota_take(cache, [(MOVES, f"{player_id}:{game}")], now=now, message="Too many moves.")


def challenge_create_quota_take(*, player_id: str, address: str | None, now: datetime) -> None:
    """Count one new challenge against the challenger and the client address (refused ones too: a
    create-and-cancel loop is what this stops).

    Raises:
        RateLimited: a quota is spent (nothing was counted).
    """
    takes = [(Quota("challenges-by-player", settings.CHALLENGES_PER_HOUR_PER_PLAYER, HOUR), player_id)]
    if address is not None:
        takes.append((Quota("challenges-by-address", settings.CHALLENGES_PER_HOUR_PER_ADDRESS, HOUR), address))
    quota_take(cache, takes, now=now, message="Too many challenges.")


def _slot_key(kind: str, token_id: int, index: int) -> str:
    return f"bot-stream:{kind}:{token_id}:{index}"


def stream_slot_take(*, kind: str, token_id: int, holder: str) -> str:
    """Take a free stream slot of ``kind`` for the token; returns its key.

    Raises:
        RateLimited: every slot of that kind is held.
    """
    for index in range(STREAMS_PER_TOKEN[kind]):
        key = _slot_key(kind, token_id, index)
        if cache.add(key, holder, timeout=SLOT_LEASE_SECONDS):
            return key
    raise RateLimited(SLOT_LEASE_SECONDS, message=f"At most {STREAMS_PER_TOKEN[kind]} {kind} streams per token.")


def stream_slot_renew(key: str, holder: str) -> None:
    cache.set(key, holder, timeout=SLOT_LEASE_SECONDS)


def stream_slot_release(key: str, holder: str) -> None:
    if cache.get(key) == holder:  # not a slot that lapsed and was taken by another stream since
        cache.delete(key)
