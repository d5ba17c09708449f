"""Playing in a room: start a game, drop, resign, play again (the automatic moves:
:mod:`lobby.play.automatic`). One transaction each, holding the room's row lock: validate -> write ->
broadcast on commit; a person's drop first tries the held room (below).

The rooms decide who may act (seats, turns, presence); the game record changes through
:mod:`games.services` (a person's drop, a CPU seat's move, a timeout move and a stand-in all end in
``games.services.game_move_write``, after :func:`room_move` under the room's lock, or the held path).
Services take ``now``; only the edges (consumers, the ticker) read the clock.

A person's drop is the hot path, one service (:func:`game_drop`) with an inner fast path. When this
process holds the room at a version (:mod:`lobby.play.held`: the rows after the room's last move, made here
or heard of), the drop reads nothing: it is checked against those rows and written in one statement that
lands only if the room is still at that version (``games.services.game_move_write`` guarded by
``rooms.services.room_change_guard``: on PostgreSQL the room's version bump, the game's UPDATE and the
move's INSERT as one statement, one round trip). A drop that ends the game is one too: its end (status,
winner, line, reason) is written with it, the rest after commit (``games.postgame``). A drop that changes
a seat, or that finds nothing held or the version moved (another process's move, a takeback, a timeout)
falls back to the
locked path, five statements between BEGIN and COMMIT: lock and bump the room (one UPDATE ...
RETURNING), read its seats with their players, read its current game (whose row carries the record, the
stakes and the due time), INSERT the move, UPDATE the game. Either way the broadcast is built from the
rows: a small ``move`` frame when nothing but the game changed, else the whole room. Exactly once either
way: both write only at the version (or under the lock) that every other change of the room bumps.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext

from common import metrics
from common.errors import Refused
from common.hooks import Hook, OnError, Runs
from common.translation import render
from games import endings
from games import services as games
from games.engine import EngineError, Peg
from games.models import Game, GameStatus
from lobby import events, timers
from lobby.models import Room, Seat
from lobby.play.held import HELD, Held
from lobby.protocol import room as protocol
from lobby.protocol.snapshot import deadline_json, offers_json, threats_json
from lobby.rooms.selectors import current_game, live_seat_ratings, room_seats
from lobby.rooms.services import room_broadcast, room_change_guard, room_guarded, room_lock, room_touch
from players.models import Player
from players.services import EndedBy, PlayerEnded

# Two timeouts in a row and a seat counts as away until its player acts again.
TIMEOUTS_BEFORE_AWAY = 2


@dataclass(frozen=True, slots=True)
class MovePlayed:
    """A move written under the room's lock (:func:`room_move`): ``played`` in the room ``code``, ``game`` as
    the move left it."""

    game: Game
    code: str
    played: games.Played


# Inside the transaction of every move written under the room's lock (so what a handler writes is made
# exactly when the move is): a person's drop off the held path, a CPU seat's move, a timeout, a stand-in.
# A move from a held room (one statement, no transaction) is only ever a live game's (lobby.play.held holds
# no correspondence game) and is not told. Correspondence registers its your_turn notification.
MOVE_PLAYED: Hook[MovePlayed] = Hook("move played", runs=Runs.INSIDE_TRANSACTION, on_error=OnError.PROPAGATE)


# --- starting games ------------------------------------------------------------------------------
def game_start(*, code: str, player: Player, now: datetime, tournament_id: int | None = None) -> Game:
    """The host starts a game. An empty seat is taken by the CPU at the room's level.

    ``tournament_id``: the arena pairing this game (its room's games have no "again").

    Raises:
        Refused: no_room, not_host, game_not_over, no_seat (nobody is seated).
    """
    with transaction.atomic():
        room = room_lock(code)
        if room.host_id != player.id:
            raise Refused("not_host", gettext("Only the host can start the game."))
        return _start_next_game(room, now=now, tournament_id=tournament_id)


def game_again(*, code: str, player: Player, now: datetime) -> Game | None:
    """A seated person asks for the next game; it starts when every seated person has asked.

    Returns the new game, or None while someone has yet to ask.

    Raises:
        Refused: no_room, no_seat, no_game, game_not_over.
    """
    with transaction.atomic():
        room = room_lock(code)
        seat = room.seats.filter(player=player).first()
        if seat is None:
            raise Refused("no_seat", gettext("Only seated players can ask for another game."))
        last = current_game(room)
        if last is None:
            raise Refused("no_game", gettext("No game has been played here yet: the host starts the first one."))
        if last.status == GameStatus.PLAYING:
            raise Refused("game_not_over", gettext("This game is still being played."))
        if last.tournament_id is not None:
            raise Refused("no_again", gettext("An arena pairs its games: go back to the arena for the next one."))
        seat.wants_again = True
        seat.save(update_fields=["wants_again"])
        people = room.seats.filter(player__isnull=False)
        if people.filter(wants_again=False).exists():
            room_touch(room, now=now)
            return None
        return _start_next_game(room, now=now)


def _start_next_game(room: Room, *, now: datetime, tournament_id: int | None = None) -> Game:
    """The room's next game, started (the room locked by the caller): its seats ready, the game written
    with its due time, the room's version bumped and its snapshot sent once committed, all from the rows
    read here (the room's last game and its seats with their players: two reads, two or three writes)."""
    last = current_game(room)
    if last is not None and last.status == GameStatus.PLAYING:
        raise Refused("game_not_over", gettext("A game is already being played."))
    seated = room_seats(room)  # (the room's lock serialises every change of its seats)
    seats = {seat.number: seat for seat in seated}
    if all(seat.player_id is None for seat in seated):
        raise Refused("no_seat", gettext("Nobody is seated: sit down to play."))
    red_seat = 3 - last.red_seat if (last is not None and room.alternate_first) else 1
    # Each seat ready for the game (written only where it was not: a first game's seats usually are).
    unready = [seat for seat in seated if (seat.cpu, seat.wants_again, seat.away, seat.timeouts_in_row)
               != (seat.player_id is None, False, False, 0)]
    for seat in unready:
        seat.cpu = seat.player_id is None
        seat.wants_again = False
        seat.away = False
        seat.timeouts_in_row = 0
    if unready:
        Seat.objects.bulk_update(unready, ["cpu", "wants_again", "away", "timeouts_in_row"])
    red, yellow = seats[red_seat], seats[3 - red_seat]
    ranked = endings.game_is_ranked(ranked=room.ranked, red_cpu=red.cpu, yellow_cpu=yellow.cpu)
    # Ratings do not change during a game: what it is played for is worked out once, here.
    stakes = live_seat_ratings(seated, now=now) if ranked else {}
    game = games.game_new(
        room_id=room.pk,
        number=(last.number + 1) if last is not None else 1,
        red_seat=red_seat,
        red_player_id=red.player_id,
        yellow_player_id=yellow.player_id,
        red_cpu=red.cpu,
        yellow_cpu=yellow.cpu,
        cpu_level=room.cpu_level,
        ranked=room.ranked,
        turn_seconds=room.turn_seconds,
        days_per_move=room.days_per_move,
        now=now,
        stakes={str(number): entry for number, entry in stakes.items()},
        tournament_id=tournament_id,
    )
    game.due_at = timers.due_time(game, timers.seat_states(room, seats=seated))
    timers.wake_if_due(game, now=now)
    games.game_begin(game)
    hold_on_commit(room, seated, game)  # before the snapshot: held before the players hear of the game
    # Who sits is as it was: the spectator count needs no recount.
    room_touch(room, now=now, recount=False, game=game, seats=seated)
    return game


# --- a person's actions --------------------------------------------------------------------------
def playing_seat(game: Game | None, seats: list[Seat], player: Player) -> Seat:
    """The seat from which ``player`` plays ``game``, the room's current game.

    Raises:
        Refused: no_game, no_seat, game_over.
    """
    if game is None:
        raise Refused("no_game", gettext("No game has started in this room."))
    seat = next((s for s in seats if s.player_id == player.id), None)
    if seat is None or seat.cpu:
        raise Refused("no_seat", gettext("You are not playing in this game."))
    if game.status != GameStatus.PLAYING:
        raise Refused("game_over", gettext("The game is over."))
    return seat


def player_acts(room: Room, seat: Seat) -> bool:
    """A person acting ends their away status and their run of timeouts; returns whether the seat
    shows differently now (it was away)."""
    was_away = seat.away
    if was_away:
        events.notice_on_commit(room.code, "back", seat.number)
    if seat.away or seat.timeouts_in_row:
        seat.away = False
        seat.timeouts_in_row = 0
        seat.save(update_fields=["away", "timeouts_in_row"])
    return was_away


@metrics.MOVE_SERVICE_SECONDS.labels(service="drop").time()
def game_drop(*, code: str, player: Player, peg: str, ply: int, now: datetime) -> Game:
    """``player`` drops a bead on ``peg``; ``ply`` is the number of moves they saw. The one drop service:
    from the room as this process holds it when it can (:func:`_drop_held`, one statement), else under the
    room's lock (:func:`_drop_locked`, which also gives every refusal).

    Raises:
        Refused: no_room, bad_peg, no_game, no_seat, game_over, not_your_turn, stale, peg_full.
    """
    try:
        chosen = Peg.from_name(peg)
    except EngineError as exc:
        raise Refused(exc.code, render(exc)) from None
    trips = metrics.round_trips_here()
    held = HELD.take(code)
    if held is not None and not transaction.get_connection().in_atomic_block:
        moved = _drop_held(held, player=player, peg=chosen, ply=ply, now=now)
        if moved is not None:
            _drop_counted("held" if moved.status == GameStatus.PLAYING else "ended", trips)
            return moved
    game = _drop_locked(code=code, player=player, peg=chosen, ply=ply, now=now)
    _drop_counted("locked" if game.status == GameStatus.PLAYING else "ended", trips)
    return game


def _drop_counted(path: str, trips_before: int) -> None:
    drops, trips = _DROP_COUNTERS[path]
    drops.inc()
    trips.inc(metrics.round_trips_here() - trips_before)


# Each path's two counters, looked up once (a labels() call takes a lock and checks its labels every time).
_DROP_COUNTERS = {path: (metrics.DROPS.labels(path=path), metrics.DROP_ROUND_TRIPS.labels(path=path))
                  for path in metrics.DROP_PATHS}


def _drop_locked(*, code: str, player: Player, peg: Peg, ply: int, now: datetime) -> Game:
    """The drop under the room's lock (nothing held, or a stale copy, or a move that changes more)."""
    with transaction.atomic():
        room = room_lock(code, changed_at=now)  # a refusal below rolls the version bump back
        seats = room_seats(room)
        game = current_game(room)
        seat = playing_seat(game, seats, player)
        assert game is not None
        if ply != game.ply:
            raise Refused("stale", gettext("The game has moved on: it is at move %(now)s, not %(seen)s.")
                          % {"now": game.ply + 1, "seen": ply + 1})
        if game.to_move_seat != seat.number:
            raise Refused("not_your_turn", gettext("It is not your turn."))
        hold_on_commit(room, seats, game)  # before the move's events: held before its frame leaves
        seat_changed = player_acts(room, seat)
        room_move(room, seats, game, peg, seat=seat.number, cpu_reason="", now=now, seat_changed=seat_changed)
        return game


def _drop_held(held: Held, *, player: Player, peg: Peg, ply: int, now: datetime) -> Game | None:
    """``player``'s drop made from the room as this process holds it, in one statement; the game after it
    (held again), or None when it cannot be made so (nothing was written; :func:`game_drop` falls back to
    the locked path, which also gives the right refusal): the held rows do not allow it (a refusal, read
    from what may be stale), it would change a seat, or the room's version moved meanwhile."""
    room, seats, game = held.room, held.seats, held.game
    seat = next((s for s in seats if s.player_id == player.id), None)
    if (seat is None or seat.cpu or seat.away or seat.timeouts_in_row or game.status != GameStatus.PLAYING
            or ply != game.ply or game.to_move_seat != seat.number or not _only_the_game_changed(room, seats, game)):
        return None
    try:
        played = games.game_move(game, peg, seat=seat.number, cpu_reason="", now=now)
    except Refused:
        return None
    game.due_at = timers.due_time(game, timers.seat_states(room, seats=seats))  # (put back if not written)
    row = games.game_move_write(game, played, guard=room_change_guard(room, now=now))
    if row is None:
        return None
    room_guarded(room, row)
    HELD.put(held)
    timers.wake_if_due(game, now=now)  # (at once: the statement committed) the CPU seat's turn
    _move_on_commit(room, game, played)
    return game


def hold_on_commit(room: Room, seats: list[Seat], game: Game) -> None:
    """Once committed, this process holds the room as these rows are left by the transaction (the next move
    reads nothing). Call it before the change's events are queued: the callbacks run in the order they
    were queued, and a player who hears of the change may send the next move at once."""
    held = Held(room, seats, game)
    transaction.on_commit(lambda: HELD.put(held))


def game_resign(*, code: str, player: Player, now: datetime, present: bool = True) -> Game:
    """``player`` resigns their game; the other seat wins. ``present``: False for a resignation made for them
    (:func:`games_resign_for`: their account closed), which leaves their seat's away status as it is.

    Raises:
        Refused: no_room, no_game, no_seat, game_over.
    """
    with transaction.atomic():
        room = room_lock(code)
        game = current_game(room)
        seat = playing_seat(game, room_seats(room), player)
        assert game is not None
        if present:
            player_acts(room, seat)
        endings.game_resign_write(game, seat=seat.number, now=now)
        room_touch(room, now=now)
        return game


def games_resign_for(*, player: Player, correspondence: bool, now: datetime) -> list[str]:
    """Resign every game ``player`` is playing in an open room, correspondence rooms' or live ones', one room
    at a time (in the order of their codes, as every change of many rooms locks them) through
    :func:`game_resign`, in the caller's transaction: its opponents' sockets are told once it commits, as of
    any resignation. Returns the codes of the rooms whose game was resigned."""
    rooms = Room.objects.filter(closed_at=None, seats__player=player, days_per_move__isnull=not correspondence)
    codes = sorted(set(rooms.values_list("code", flat=True)))
    resigned = []
    for code in codes:
        try:
            game_resign(code=code, player=player, now=now, present=False)
        except Refused:  # no game being played there, or it ended meanwhile
            continue
        resigned.append(code)
    return resigned


def live_games_player_closed(ended: PlayerEnded) -> None:
    """Registered with ``players.services.PLAYER_ENDED`` (in the closing's transaction): a closed account's live
    games being played are resigned at once (its opponents win now, not after the grace period against the
    computer's stand-in); its correspondence games are ``correspondence.services.games_player_closed``'s."""
    if ended.reason is EndedBy.CLOSED:
        games_resign_for(player=ended.player, correspondence=False, now=ended.at)


def room_move(
    room: Room, seats: list[Seat], game: Game, peg: Peg, *, seat: int, cpu_reason: str, now: datetime,
    seat_changed: bool,
) -> None:
    """Play ``peg`` for ``seat`` in the room's current game (a person's drop off the held path, a CPU seat's
    move, a timeout, a stand-in), with its next due time, and have the room told once committed. The room
    is locked and its version already bumped for this move.

    ``seat_changed``: a seat's row changed in this transaction in a way the room shows (away).
    """
    played = games.game_move(game, peg, seat=seat, cpu_reason=cpu_reason, now=now)
    if played.position.outcome is None:
        game.due_at = timers.due_time(game, timers.seat_states(room, seats=seats))
        timers.wake_if_due(game, now=now)
    games.game_move_write(game, played)
    MOVE_PLAYED.emit(MovePlayed(game=game, code=room.code, played=played))
    if seat_changed or not _only_the_game_changed(room, seats, game):
        room_broadcast(room, game=game, now=now, seats=seats)
        return
    _move_on_commit(room, game, played)


def _move_on_commit(room: Room, game: Game, played: games.Played) -> None:
    """Once committed, the room is told of the move in a ``move`` frame (and the lobby's lists of it)."""
    events.move_on_commit(
        room.code,
        protocol.move_frame(
            version=room.version, game_id=str(game.id), ply=game.ply, peg=str(played.peg), level=played.level,
            seat=played.seat, cpu=played.cpu, to_move_seat=game.to_move_seat, deadline=deadline_json(game),
            status=game.status, winner_seat=game.winner_seat, line=game.line, reason=game.reason or None,
            threats=threats_json(game, played.position), offers=offers_json(game),
        ),
    )
    events.lists_changed_on_commit()  # the live games list shows each game's moves


def _only_the_game_changed(room: Room, seats: list[Seat], game: Game) -> bool:
    """Whether a move left everything the room shows but its game as it was (a ``move`` frame says all).

    Not so when a seat shows a countdown (a disconnected seat, not away: its ``away_at`` follows the
    turn), nor when the game ended in a room that shows ratings (they change, or start to show) and its
    post-game work is done. While that work is pending (``Game.post_due``: a move's end always leaves it so)
    the room shows the ratings the game was played for, as during the game
    (``lobby.rooms.selectors.seat_ratings``); the new ones come in the room frame sent once it is done.
    """
    if any(not seat.is_connected and not seat.away for seat in seats):
        return False
    return game.status == GameStatus.PLAYING or game.post_due is not None or not (room.ranked or game.stakes)
