"""The quick-pairing pool, shared by every server process through PostgreSQL (or the SQLite file).

Every change is one transaction. A seek is a row tied to one lobby socket; the socket's process keeps
it alive (``seeks_keep_alive``), and the socket deletes it when it cancels or closes. A pairing wave
reads the live seeks (``wave_begin``), the pure :func:`lobby.pairing.matching.pair_wave` pairs them off the
database thread, and ``wave_pair`` writes the pairs: in one transaction it locks the seek rows, drops
any pair whose seeker left meanwhile, creates each room with both seated and the first game started,
and marks both seeks paired. So a seeker is paired at most once, and never after their seek ended.
Services take ``now``; only the edges read the clock.
"""

from __future__ import annotations

import enum
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q

from lobby import events
from lobby.models import PairingWave, Seek
from lobby.pairing.matching import Pool, Seeker
from lobby.play import moves
from lobby.rooms.services import room_create
from players.models import Player
from players.services import refuse_bots
from ratings.selectors import ratings_of

# The socket's process refreshes a live seek this often; a seek not refreshed for SEEK_EXPIRY is
# treated as gone (its process died or its page went silent) and is never paired.
HEARTBEAT = timedelta(seconds=1)
SEEK_EXPIRY = timedelta(seconds=6)
# A wave is given this long; if its process dies meanwhile, another process takes over after it.
WAVE_LEASE = timedelta(seconds=30)
# A paired seek stays (so its socket can learn the room from it) until the socket closes, or this long.
PAIRED_KEPT = timedelta(minutes=5)


def max_wait() -> timedelta:
    """How long a seek may wait before it is ended with ``timeout`` (``SEEK_MAX_WAIT_SECONDS``)."""
    return timedelta(seconds=settings.SEEK_MAX_WAIT_SECONDS)


def wave_every() -> timedelta:
    """The pace of pairing waves across all processes (``PAIRING_WAVE_SECONDS``)."""
    return timedelta(seconds=settings.PAIRING_WAVE_SECONDS)


def seeker_of(seek: Seek) -> Seeker:
    """The pure pairing's view of a seek row."""
    return Seeker(
        seek_id=seek.pk,
        player_id=str(seek.player_id),
        rating=seek.rating,
        since=seek.since,
        pool=Pool(turn_seconds=seek.turn_seconds, ranked=seek.ranked),
    )


# --- one socket's seek -----------------------------------------------------------------------------
def seek_enter(*, player: Player, channel_name: str, pool: Pool, now: datetime) -> Seeker:
    """``player`` starts seeking on the socket ``channel_name``; returns the new seek.

    One seek per player: a seek the player had on another socket (another tab) is replaced, and that
    socket is told (``replaced``). A seek this socket already had is replaced too (the consumer
    refuses a second ``seek`` while one is waiting, with ``already_seeking``).

    Raises:
        Refused(bot_account): bot accounts play challenges only.
    """
    refuse_bots(player)
    for attempt in range(2):
        try:
            with transaction.atomic():
                return _seek_replace(player=player, channel_name=channel_name, pool=pool, now=now)
        except IntegrityError:
            # Two tabs of one player seeking at the same instant: the other's row landed first.
            if attempt:
                raise
    raise AssertionError("unreachable")


def _seek_replace(*, player: Player, channel_name: str, pool: Pool, now: datetime) -> Seeker:
    for old in Seek.objects.select_for_update().filter(Q(player=player) | Q(channel_name=channel_name)):
        if old.room_code is None and old.channel_name != channel_name:
            events.seek_ended_on_commit(channel_name=old.channel_name, seek_id=old.pk, reason="replaced")
        old.delete()
    rating = ratings_of([player.pk], now=now)[player.pk].rating
    seek = Seek.objects.create(
        player=player,
        channel_name=channel_name,
        turn_seconds=pool.turn_seconds,
        ranked=pool.ranked,
        rating=rating,
        since=now,
        last_seen_at=now,
    )
    return seeker_of(seek)


class CancelOutcome(enum.Enum):
    CANCELLED = "cancelled"  # the seek was waiting and is gone now
    PAIRED = "paired"  # too late: a wave paired it first (``room_code`` says where)
    GONE = "gone"  # there was no such seek any more (replaced, expired)


@dataclass(frozen=True, slots=True)
class Cancelled:
    outcome: CancelOutcome
    room_code: str | None = None


def seek_cancel(*, seek_id: int) -> Cancelled:
    """End a waiting seek. A wave that paired it first wins: the outcome then says where it was paired.

    The row lock makes the two exclusive: a wave holding the row finishes first, and a cancel that
    got the row first removes it before any wave can pair it.
    """
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(pk=seek_id).first()
        if seek is None:
            return Cancelled(CancelOutcome.GONE)
        if seek.room_code is not None:
            return Cancelled(CancelOutcome.PAIRED, seek.room_code)
        seek.delete()
        return Cancelled(CancelOutcome.CANCELLED)


def seek_leave(*, channel_name: str) -> None:
    """The socket closed: its seek (waiting or paired) goes with it."""
    Seek.objects.filter(channel_name=channel_name).delete()


def seek_replaced(*, seek_id: int, player: Player) -> bool:
    """Whether the player's seek ``seek_id`` is gone because the player seeks on another socket now."""
    return Seek.objects.filter(player=player).exclude(pk=seek_id).exists()


@dataclass(frozen=True, slots=True)
class SeekStatus:
    seek_id: int
    room_code: str | None


def seeks_keep_alive(*, alive: Sequence[str], watched: Sequence[str], now: datetime) -> dict[str, SeekStatus]:
    """Refresh the waiting seeks of the sockets in ``alive``; return the seeks of ``watched`` by channel.

    Called by each process every ``HEARTBEAT`` for its own seeking sockets: one UPDATE and one SELECT
    whatever their number. A socket missing from the answer has no seek any more.
    """
    if alive:
        Seek.objects.filter(channel_name__in=list(alive), room_code=None).update(last_seen_at=now)
    if not watched:
        return {}
    rows = Seek.objects.filter(channel_name__in=list(watched)).values_list("channel_name", "pk", "room_code")
    return {channel: SeekStatus(seek_id=pk, room_code=code) for channel, pk, code in rows}


# --- waves -----------------------------------------------------------------------------------------
def wave_claim(*, now: datetime) -> bool:
    """Whether this process runs the pairing wave due now.

    One conditional UPDATE: the last wave started at least ``PAIRING_WAVE_SECONDS`` ago and none is
    running. So one process wins each wave however many try, waves never overlap (two overlapping
    waves would pair the same seekers differently and drop each other's pairs), and they keep their
    pace across processes. The winner calls :func:`wave_end` when done; a claim whose process died
    lapses after ``WAVE_LEASE``.
    """
    # 0.9: a process ticking every second is not pushed a whole tick late by clock jitter.
    due = now - wave_every() * 0.9
    claimed = PairingWave.objects.filter(pk=1, started_at__lte=due).filter(
        Q(running_until=None) | Q(running_until__lt=now)
    )
    if claimed.update(started_at=now, running_until=now + WAVE_LEASE):
        return True
    try:
        with transaction.atomic():
            _, created = PairingWave.objects.get_or_create(
                pk=1, defaults={"started_at": now, "running_until": now + WAVE_LEASE}
            )
    except IntegrityError:  # another process created it just now, and so runs this wave
        return False
    return created


def wave_end() -> None:
    """The wave this process claimed is written: the next may start when it is due."""
    PairingWave.objects.filter(pk=1).update(running_until=None)


def wave_begin(*, now: datetime) -> list[Seeker] | None:
    """Claim the wave due now and return the live, waiting seekers; None when another process has it.

    The winner also sweeps the pool: seeks not refreshed within ``SEEK_EXPIRY`` (their process died or
    their page went silent) and seeks waiting past the maximum wait are ended, and their sockets told;
    paired seeks whose socket never closed are forgotten after ``PAIRED_KEPT``.
    """
    if not wave_claim(now=now):
        return None
    seeks_sweep(now=now)
    live = Seek.objects.filter(room_code=None, last_seen_at__gte=now - SEEK_EXPIRY).order_by("pk")
    return [seeker_of(seek) for seek in live]


def seeks_sweep(*, now: datetime) -> int:
    """End the seeks that expired or waited too long (their sockets are told); returns how many."""
    ended = 0
    with transaction.atomic():
        stale = Seek.objects.select_for_update().filter(room_code=None, last_seen_at__lt=now - SEEK_EXPIRY)
        too_long = Seek.objects.select_for_update().filter(room_code=None, since__lt=now - max_wait())
        for reason, rows in (("expired", stale), ("timeout", too_long)):
            for seek in rows:
                events.seek_ended_on_commit(channel_name=seek.channel_name, seek_id=seek.pk, reason=reason)
                seek.delete()
                ended += 1
        Seek.objects.filter(room_code__isnull=False, paired_at__lt=now - PAIRED_KEPT).delete()
    return ended


@dataclass(frozen=True, slots=True)
class Pairing:
    code: str
    seek_ids: tuple[int, int]


def pair_write(*, pair: tuple[Seeker, Seeker], now: datetime) -> Pairing | None:
    """Write one pair of a wave: a room with both seated and the first game started; None if dropped.

    One transaction holding both seek rows: a pair whose seeker is no longer waiting and alive (it
    cancelled, closed its page, was replaced, expired, or another wave paired it) is dropped, and its
    partner waits for the next wave. Both sockets are told the room's code once committed. Pairs of a
    wave share no seeker, so they may be written concurrently.
    """
    a, b = pair
    with transaction.atomic():
        rows = {
            seek.pk: seek
            for seek in Seek.objects.select_for_update()
            .filter(pk__in=sorted((a.seek_id, b.seek_id)), room_code=None, last_seen_at__gte=now - SEEK_EXPIRY)
            .order_by("pk")
        }
        one, two = rows.get(a.seek_id), rows.get(b.seek_id)
        if one is None or two is None or one.player_id == two.player_id:
            return None
        players = Player.objects.in_bulk([one.player_id, two.player_id])
        code = _room_for(players[one.player_id], players[two.player_id], one, now=now)
        Seek.objects.filter(pk__in=[one.pk, two.pk]).update(room_code=code, paired_at=now)
        for seek in (one, two):
            events.seek_paired_on_commit(channel_name=seek.channel_name, seek_id=seek.pk, code=code)
        return Pairing(code=code, seek_ids=(one.pk, two.pk))


def wave_pair(*, pairs: Sequence[tuple[Seeker, Seeker]], now: datetime) -> list[Pairing]:
    """Write pairs one after the other (see :func:`pair_write`), each committed (and told) as soon as
    it is written, on one database connection; returns those made."""
    made = (pair_write(pair=pair, now=now) for pair in pairs)
    return [pairing for pairing in made if pairing is not None]


def _room_for(first: Player, second: Player, seek: Seek, *, now: datetime) -> str:
    """A room for two paired players with the pool's rules; a coin decides who is Red (seat 1)."""
    red, yellow = (first, second) if secrets.randbelow(2) else (second, first)
    rules = {"turn_seconds": seek.turn_seconds, "ranked": seek.ranked}
    room = room_create(host=red, guest=yellow, rules=rules, now=now)
    moves.game_start(code=room.code, player=red, now=now)
    return room.code
