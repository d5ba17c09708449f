"""Offers at the board: a draw offer, a takeback request, and their answers (the room socket's ``draw``
and ``takeback`` frames, the bot API's draw endpoint). One transaction each, holding the room's row
lock as a move does (:mod:`lobby.play.moves`), so an answer and a move racing each other are serialised
and exactly one of them wins: validate -> write -> broadcast on commit.

The rules (``docs/protocol.md``, "Offers"):

- A **draw** offer stands until the offering side's opponent answers it or moves (the move lapses it,
  ``games.services.game_move_write``). One offer per seat per ``DRAW_OFFER_EVERY`` plies; in an arena, none
  before ply ``ARENA_DRAW_AFTER`` (lichess's rule, against arranged results). Offering while the
  opponent's offer stands accepts it. Accepted, the game ends drawn (``agreement``), rated as a draw.
  A CPU seat answers at once: it accepts unless its own search sees it winning.
- A **takeback** request asks to return to the position before the requester's last move (one ply if
  the opponent has not answered it, two if they have); only in casual games, never in ranked games or
  arenas (``not_allowed``). Any move lapses it. A CPU seat grants it at once. One request per seat per
  position: withdrawn or declined, it is asked again only after a move (``offer_limited``), so a request
  and its withdrawal repeated reach the opponent once. Accepted, the record, the
  turn, the deadline and the due time follow and the move rows go, in this transaction; the room gets
  one ``room`` frame carrying ``"taken_back": n``.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext

from common.errors import Refused
from games import services as games
from games.engine import Colour, Position
from games.engine.cpu import Level, sees_win
from games.models import Game
from lobby import events, timers
from lobby.models import Room, Seat
from lobby.play.moves import player_acts, playing_seat
from lobby.rooms.selectors import current_game, room_seats
from lobby.rooms.services import room_lock, room_touch
from players.models import Player

DRAW_OFFER_EVERY = 10  # plies between two draw offers of one seat
ARENA_DRAW_AFTER = 20  # no draw offer in an arena game before this ply


def game_offer(*, code: str, player: Player, kind: str, action: str, now: datetime) -> Game:
    """``player`` offers (``action`` ``offer``), accepts or declines a ``kind`` (``draw``, ``takeback``)
    offer in the room's current game. Declining one's own offer withdraws it.

    Raises:
        Refused: no_room, no_game, no_seat, game_over, not_allowed (a takeback in a ranked game or an
            arena; a draw in an arena before ply 20), offer_limited (an offer of yours stands, or a draw
            offered within 10 plies of your last one), no_offer (nothing to answer), nothing_to_take_back.
    """
    with transaction.atomic():
        room = room_lock(code)
        seats = room_seats(room)
        game = current_game(room)
        seat = playing_seat(game, seats, player)
        assert game is not None
        opponent = next(s for s in seats if s.number == 3 - seat.number)
        player_acts(room, seat)
        taken_back = (_draw if kind == "draw" else _takeback)(room, seats, game, seat, opponent, action, now)
        room_touch(room, now=now, extra={"taken_back": taken_back} if taken_back else None)
        return game


def _draw(room: Room, seats: list[Seat], game: Game, seat: Seat, opponent: Seat, action: str, now: datetime) -> int:
    standing = game.draw_offer_seat
    if action == "offer" and standing == opponent.number:
        action = "accept"  # both sides offered: agreed
    if action == "offer":
        if standing == seat.number:
            raise Refused("offer_limited", gettext("Your draw offer stands already: wait for the answer."))
        if game.tournament_id is not None and game.ply < ARENA_DRAW_AFTER:
            raise Refused("not_allowed", gettext("No draw offers in an arena before move %(move)s.")
                          % {"move": ARENA_DRAW_AFTER + 1})
        last = game.draw_offer_plies.get(str(seat.number))
        if last is not None and game.ply - last < DRAW_OFFER_EVERY:
            raise Refused("offer_limited", gettext("One draw offer per %(every)s moves: you may offer again from move "
                                                   "%(move)s.") % {"every": DRAW_OFFER_EVERY,
                                                                   "move": last + DRAW_OFFER_EVERY + 1})
        game.draw_offer_plies = {**game.draw_offer_plies, str(seat.number): game.ply}
        events.offer_on_commit(room.code, "draw", seat.number, "offer")
        if opponent.cpu:
            return _cpu_answers_draw(room, game, opponent, now)
        game.draw_offer_seat = seat.number
        game.save(update_fields=["draw_offer_seat", "draw_offer_plies"])
        return 0
    _answerable(standing, seat, "draw offer", accept=action == "accept")
    if action == "accept":
        games.game_agree_draw(game, now=now)
    else:
        game.draw_offer_seat = None
        game.save(update_fields=["draw_offer_seat"])
    events.offer_on_commit(room.code, "draw", seat.number, action)
    return 0


def _cpu_answers_draw(room: Room, game: Game, cpu: Seat, now: datetime) -> int:
    """The CPU's seat answers a draw offer at once: yes unless its own search sees it winning."""
    colour = Colour.RED if game.colour_of_seat(cpu.number) == "red" else Colour.YELLOW
    winning = sees_win(Position.from_record(game.record), colour, level=Level.from_number(game.cpu_level))
    events.offer_on_commit(room.code, "draw", cpu.number, "decline" if winning else "accept")
    if winning:
        game.save(update_fields=["draw_offer_plies"])
    else:
        games.game_agree_draw(game, now=now)
    return 0


def _takeback(room: Room, seats: list[Seat], game: Game, seat: Seat, opponent: Seat, action: str,
              now: datetime) -> int:
    if game.ranked or game.tournament_id is not None:
        raise Refused("not_allowed", gettext("Takebacks are for casual games: not in ranked games or arenas."))
    standing = game.takeback_offer_seat
    if action == "offer":
        if standing is not None:
            raise Refused("offer_limited",
                          gettext("Your takeback request waits for an answer.") if standing == seat.number
                          else gettext("Your opponent's takeback request waits for an answer."))
        if game.draw_offer_plies.get(_takeback_key(seat.number)) == game.ply:
            raise Refused("offer_limited", gettext("One takeback request per move: ask again after the next move."))
        plies = plies_to_take_back(game, seat.number)
        events.offer_on_commit(room.code, "takeback", seat.number, "offer")
        if opponent.cpu:
            events.offer_on_commit(room.code, "takeback", opponent.number, "accept")
            return _take_back(room, seats, game, plies, now)
        game.takeback_offer_seat = seat.number
        game.save(update_fields=["takeback_offer_seat"])
        return 0
    _answerable(standing, seat, "takeback request", accept=action == "accept")
    events.offer_on_commit(room.code, "takeback", seat.number, action)
    if action == "accept":
        assert standing is not None
        return _take_back(room, seats, game, plies_to_take_back(game, standing), now)
    assert standing is not None
    game.draw_offer_plies = {**game.draw_offer_plies, _takeback_key(standing): game.ply}  # withdrawn or declined
    game.takeback_offer_seat = None
    game.save(update_fields=["takeback_offer_seat", "draw_offer_plies"])
    return 0


def _takeback_key(seat: int) -> str:
    """Where ``Game.draw_offer_plies`` keeps the ply at which the seat's takeback request was last
    withdrawn or declined: it may not ask again until a move is played or taken back."""
    return f"takeback-{seat}"


def _answerable(standing: int | None, seat: Seat, what: str, *, accept: bool) -> None:
    """Refuse an answer to no offer, or one's own offer accepted (declining one's own withdraws it)."""
    if standing is None:
        raise Refused("no_offer", gettext("There is no draw offer to answer.") if what == "draw offer"
                      else gettext("There is no takeback request to answer."))
    if accept and standing == seat.number:
        raise Refused("no_offer",
                      gettext("Your own draw offer waits for your opponent's answer.") if what == "draw offer"
                      else gettext("Your own takeback request waits for your opponent's answer."))


def plies_to_take_back(game: Game, seat: int) -> int:
    """How many plies take ``game`` back to the position before ``seat``'s last move: 1 if the opponent
    has not answered it yet, 2 if they have.

    Raises:
        Refused(nothing_to_take_back): ``seat`` has not moved in this game.
    """
    parity = 0 if game.colour_of_seat(seat) == "red" else 1
    last = game.ply - 1 if (game.ply - 1) % 2 == parity else game.ply - 2
    if last < 0:
        raise Refused("nothing_to_take_back", gettext("You have no move to take back yet."))
    return game.ply - last


def _take_back(room: Room, seats: list[Seat], game: Game, plies: int, now: datetime) -> int:
    games.game_take_back(game, plies=plies, now=now)
    game.due_at = timers.due_time(game, timers.seat_states(room, seats=seats))
    timers.wake_if_due(game, now=now)
    games.game_take_back_write(game)
    return plies
