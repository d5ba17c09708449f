"""Challenges between people and bots: make, accept, decline, cancel. One transaction each, holding the
challenge's row lock; the accounts' event streams hear of it once committed (:mod:`bots.events`).

Accepting makes an ordinary room as every pairing does (:func:`lobby.play.pairs.room_for_two`): Red hosts
it in seat 1, the other player sits in seat 2, and the game starts (watchable, with its chat and analysis,
rated when asked); the challenger's colour is theirs to choose, or a coin's. Services take ``now``; only
the edges read the clock.

Limits (against scripts; ``docs/bots.md``): a challenger creates at most ``CHALLENGES_PER_HOUR_PER_PLAYER``
challenges an hour (``CHALLENGES_PER_HOUR_PER_ADDRESS`` per client address), has at most ``MAX_OPEN`` waiting
at once, and a player's inbox holds at most ``CHALLENGES_WAITING_PER_PLAYER`` waiting challenges. An accepted
challenge is a new room: it counts against the room quotas (:mod:`lobby.rooms.limits`) of the challenger and,
unless a bot accepts, of the accepter and their address. Accepting checks again what may have changed since
the challenge was made: a banned player, a bot (a game with a bot has a turn timer).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction

from bots import protocol
from bots.events import line_on_commit
from bots.limits import challenge_create_quota_take
from bots.models import Challenge, ChallengeStatus, ColourChoice, DeclineReason
from common.errors import Refused
from lobby.play.pairs import Colour, GameSettings, room_for_two
from lobby.rooms.limits import rooms_create_quota_take
from players.accounts import username_key
from players.models import Player
from players.social import refuse_blocked_challenge
from ratings.selectors import rating_json, ratings_of

TURN_SECONDS = (30, 60)
# Challenges one player may have waiting for an answer at once.
MAX_OPEN = 10


def _player_by_username(username: str) -> Player | None:
    return Player.objects.select_related("user").filter(username_key=username_key(username), user__isnull=False).first()


def username_of(player: Player) -> str | None:
    """The account's username; None for a guest (a guest may challenge; only accounts are challenged)."""
    return player.user.username if player.user_id is not None and player.user is not None else None


def challenge_out(challenge: Challenge, *, now: datetime) -> dict[str, Any]:
    """A challenge as answers and streams show it, with both players' ratings now."""
    ratings = ratings_of([challenge.challenger_id, challenge.dest_id], now=now)
    shown = {pid: protocol.player_json(player, rating=rating_json(ratings[pid]), username=username_of(player))
             for pid, player in ((challenge.challenger_id, challenge.challenger), (challenge.dest_id, challenge.dest))}
    return protocol.challenge_json(challenge, challenger=shown[challenge.challenger_id], dest=shown[challenge.dest_id])


def _tell(line: dict[str, Any], *players: object) -> None:
    for player_id in players:
        line_on_commit(player_id, line)


def _clean_rules(turn_seconds: object, ranked: object, colour: object) -> tuple[int | None, bool, str]:
    if turn_seconds is not None and (isinstance(turn_seconds, bool) or turn_seconds not in TURN_SECONDS):
        raise Refused("bad_rules", "turn_seconds is 30 or 60 (or null, between people).")
    if not isinstance(ranked, bool):
        raise Refused("bad_rules", "ranked is true or false.")
    if colour not in ColourChoice.values:
        raise Refused("bad_rules", "colour is random, red or yellow.")
    return turn_seconds, ranked, str(colour)


def _refuse_unplayable(*, challenger: Player, dest: Player, turn_seconds: int | None) -> None:
    """Refuse a game these two may not play (checked on creating and again on accepting).

    Raises:
        Refused: timer_required (a game with a bot needs a turn timer), banned.
    """
    if turn_seconds is None and (dest.is_bot or challenger.is_bot):
        raise Refused("timer_required", "A game with a bot needs a turn timer: 30 or 60 seconds.")
    if challenger.is_banned or dest.is_banned:
        raise Refused("banned", "A banned player cannot play challenges.")


def challenge_create(*, challenger: Player, username: str, turn_seconds: object = 60, ranked: object = False,
                     colour: object = "random", now: datetime, address: str | None = None) -> Challenge:
    """``challenger`` invites the account ``username`` to a game; both event streams hear ``challenge``.
    ``address``: the client's, counted with the challenger (module docstring, limits).

    Raises:
        Refused: no_player (no such account), self_challenge, blocked (``dest`` blocked ``challenger``),
            bad_rules, timer_required (a game with a bot needs a turn timer), banned, too_many_challenges
            (``MAX_OPEN`` waiting already), inbox_full (the account has ``CHALLENGES_WAITING_PER_PLAYER``
            challenges waiting); RateLimited: the hour's challenges are spent.
    """
    challenge_create_quota_take(player_id=str(challenger.pk), address=address, now=now)
    dest = _player_by_username(username)
    if dest is None:
        raise Refused("no_player", f"There is no account {username[:24]}.")
    if dest.pk == challenger.pk:
        raise Refused("self_challenge", "You cannot challenge yourself.")
    refuse_blocked_challenge(challenger=challenger, dest=dest)
    seconds, is_ranked, wanted = _clean_rules(turn_seconds, ranked, colour)
    _refuse_unplayable(challenger=challenger, dest=dest, turn_seconds=seconds)
    with transaction.atomic():
        # Both rows, in one order (two players challenging each other at once must not deadlock): the
        # challenger's open challenges and the inbox are counted under them.
        list(Player.objects.select_for_update().filter(pk__in=[challenger.pk, dest.pk]).order_by("pk")
             .values_list("pk", flat=True))
        waiting = Challenge.objects.filter(status=ChallengeStatus.CREATED)
        if waiting.filter(challenger=challenger).count() >= MAX_OPEN:
            raise Refused("too_many_challenges", f"At most {MAX_OPEN} challenges wait for an answer at once.")
        if waiting.filter(dest=dest).count() >= settings.CHALLENGES_WAITING_PER_PLAYER:
            raise Refused("inbox_full", f"{username[:24]} has too many challenges waiting; try again later.")
        challenge = Challenge.objects.create(
            challenger=challenger, dest=dest, turn_seconds=seconds, ranked=is_ranked, colour=wanted,
            created_at=now, updated_at=now,
        )
        _tell(protocol.challenge_line(challenge_out(challenge, now=now)), challenger.pk, dest.pk)
    return challenge


def _lock(challenge_id: str, *, player: Player) -> Challenge:
    """The challenge, locked, that ``player`` sent or received.

    Raises:
        Refused: no_challenge (none, or not theirs to see), challenge_over (answered or canceled already).
    """
    challenge = (Challenge.objects.select_for_update(of=("self",)).select_related("challenger__user", "dest__user")
                 .filter(pk=str(challenge_id)[:16]).first())
    if challenge is None or player.pk not in (challenge.challenger_id, challenge.dest_id):
        raise Refused("no_challenge", "There is no such challenge.")
    if challenge.status != ChallengeStatus.CREATED:
        raise Refused("challenge_over", f"This challenge was {challenge.status} already.")
    return challenge


def challenge_accept(*, challenge_id: str, player: Player, now: datetime, address: str | None = None) -> Challenge:
    """The challenged player accepts: a room with both seated and the game started; both event streams hear
    ``gameStart`` with their colour. ``address``: the accepter's, counted with the room (module docstring).

    Both players are read again under the lock: a player banned, or turned bot (a game without a turn
    timer), since the challenge was made is refused here, and the challenge stays waiting.

    Raises:
        Refused: no_challenge, challenge_over, not_yours (only the challenged accepts), banned, timer_required;
            RateLimited: a room quota is spent.
    """
    with transaction.atomic():
        challenge = _lock(challenge_id, player=player)
        if challenge.dest_id != player.pk:
            raise Refused("not_yours", "Only the challenged player accepts a challenge.")
        challenger, dest = challenge.challenger, challenge.dest
        _refuse_unplayable(challenger=challenger, dest=dest, turn_seconds=challenge.turn_seconds)
        counted = [str(challenger.pk)] + ([] if dest.is_bot else [str(dest.pk)])
        rooms_create_quota_take(address=None if dest.is_bot else address, player_ids=counted, now=now)
        made = room_for_two(first=challenger, second=dest, colour=_CHOSEN[challenge.colour],
                            settings=GameSettings(turn_seconds=challenge.turn_seconds, ranked=challenge.ranked),
                            now=now)
        code, game = made.room.code, made.game
        challenge.status = ChallengeStatus.ACCEPTED
        challenge.room_code, challenge.game_id, challenge.updated_at = code, game.pk, now
        challenge.save(update_fields=["status", "room_code", "game_id", "updated_at"])
        for colour, who in (("red", made.red), ("yellow", made.yellow)):
            line_on_commit(who.pk, protocol.game_start_line(game_id=str(game.pk), room=code, colour=colour))
    return challenge


# The challenger's colour, as they chose it.
_CHOSEN: dict[str, Colour] = {ColourChoice.RANDOM: "random", ColourChoice.RED: "red", ColourChoice.YELLOW: "yellow"}


def challenge_decline(*, challenge_id: str, player: Player, reason: object = "generic", now: datetime) -> Challenge:
    """The challenged player declines, saying why (``generic``, ``later``, ``rated``, ``casual``, ``timer``).

    Raises:
        Refused: no_challenge, challenge_over, not_yours, bad_reason.
    """
    if reason not in DeclineReason.values:
        raise Refused("bad_reason", f"The reason is one of {', '.join(DeclineReason.values)}.")
    with transaction.atomic():
        challenge = _lock(challenge_id, player=player)
        if challenge.dest_id != player.pk:
            raise Refused("not_yours", "Only the challenged player declines a challenge; the challenger cancels.")
        challenge.status, challenge.decline_reason, challenge.updated_at = ChallengeStatus.DECLINED, str(reason), now
        challenge.save(update_fields=["status", "decline_reason", "updated_at"])
        line = protocol.challenge_line(challenge_out(challenge, now=now))
        _tell(line, challenge.challenger_id, challenge.dest_id)
    return challenge


def challenge_cancel(*, challenge_id: str, player: Player, now: datetime) -> Challenge:
    """The challenger takes the challenge back.

    Raises:
        Refused: no_challenge, challenge_over, not_yours (only the challenger cancels).
    """
    with transaction.atomic():
        challenge = _lock(challenge_id, player=player)
        if challenge.challenger_id != player.pk:
            raise Refused("not_yours", "Only the challenger cancels a challenge; the challenged declines.")
        challenge.status, challenge.updated_at = ChallengeStatus.CANCELED, now
        challenge.save(update_fields=["status", "updated_at"])
        line = protocol.challenge_line(challenge_out(challenge, now=now))
        _tell(line, challenge.challenger_id, challenge.dest_id)
    return challenge


def challenge_get(*, challenge_id: str, player: Player) -> Challenge:
    """A challenge ``player`` sent or received (any status).

    Raises:
        Refused(no_challenge): none, or not theirs.
    """
    rows = Challenge.objects.select_related("challenger__user", "dest__user")
    challenge = rows.filter(pk=str(challenge_id)[:16]).first()
    if challenge is None or player.pk not in (challenge.challenger_id, challenge.dest_id):
        raise Refused("no_challenge", "There is no such challenge.")
    return challenge


def challenges_open(*, player: Player) -> list[Challenge]:
    """The challenges waiting for an answer that ``player`` sent or received, oldest first."""
    rows = Challenge.objects.select_related("challenger__user", "dest__user").filter(status=ChallengeStatus.CREATED)
    return list((rows.filter(dest=player) | rows.filter(challenger=player)).order_by("created_at", "pk"))
