"""Offers at the board (lobby.play.offers): draw offers and takebacks, their rules with an injected clock,
the CPU's answers, and a takeback racing a move."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from common.errors import Refused
from games.models import EndReason, Game, GameStatus, Move
from games.postgame import post_games_run
from live.frames import BadFrame
from lobby import events
from lobby.play.automatic import CpuJob, game_cpu_move
from lobby.play.moves import game_drop, game_start
from lobby.play.offers import game_offer
from lobby.protocol import room as protocol
from lobby.rooms.selectors import room_snapshot
from lobby.rooms.services import room_create, room_sit
from lobby.timers import DueReason
from players.models import Player
from players.services import player_create
from ratings.models import RatingChange
from tests.arenakit import arena
from tests.layerkit import GroupListener
from tests.racekit import race

T0 = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def pair(**rules: object) -> tuple[str, Player, Player]:
    """Ann (seat 1, Red) and Bob (seat 2) in a room with their first game started at T0."""
    ann, bob = player_create(name="Ann", now=T0), player_create(name="Bob", now=T0)
    code = room_create(host=ann, rules={"ranked": False, **rules}, now=T0).code
    room_sit(code=code, player=bob, now=T0)
    game_start(code=code, player=ann, now=T0)
    return code, ann, bob


def vs_cpu(**rules: object) -> tuple[str, Player]:
    """Ann alone (seat 1, Red) against the CPU."""
    ann = player_create(name="Ann", now=T0)
    code = room_create(host=ann, rules=rules, now=T0).code
    game_start(code=code, player=ann, now=T0)
    return code, ann


def play(code: str, players: list[Player], pegs: str, *, start: int = 0) -> None:
    for i, peg in enumerate(pegs.split(), start=start):
        game_drop(code=code, player=players[i % 2], peg=peg, ply=i, now=at(i + 1))


def offer(code: str, player: Player, kind: str, action: str, seconds: float = 100) -> Game:
    return game_offer(code=code, player=player, kind=kind, action=action, now=at(seconds))


def refused(call, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(Refused) as exc:
        call(*args, **kwargs)
    return exc.value.code


def game_of(code: str) -> Game:
    return Game.objects.get(room__code=code)


def set_record(code: str, record: str) -> None:
    """Put the room's game at ``record`` (the CPU's moves are played by the ticker, not in these tests)."""
    game = game_of(code)
    Move.objects.filter(game=game).delete()
    for ply, peg in enumerate(record.split()):
        Move.objects.create(game=game, ply=ply, peg=peg, seat=1 + ply % 2, played_at=T0)
    Game.objects.filter(pk=game.pk).update(record=record, ply=len(record.split()))


# --- frames ------------------------------------------------------------------------------------------------
def test_offer_frames_parse_and_refuse_a_missing_action():
    assert protocol.parse_frame('{"type": "draw", "action": "offer"}') == protocol.Offer("draw", "offer")
    assert protocol.parse_frame('{"type": "takeback", "action": "accept"}') == protocol.Offer("takeback", "accept")
    for bad in ('{"type": "draw"}', '{"type": "takeback", "action": "maybe"}', '{"type": "draw", "action": 1}'):
        with pytest.raises(BadFrame):
            protocol.parse_frame(bad)


# --- draw offers -------------------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_a_draw_offer_is_seen_and_accepted_ends_the_game_drawn_and_rated_half():
    code, ann, bob = pair(ranked=True)
    play(code, [ann, bob], "a1 b1")
    offer(code, ann, "draw", "offer")
    assert room_snapshot(code)["game"]["offers"] == [{"kind": "draw", "seat": 1}]
    assert refused(offer, code, ann, "draw", "accept") == "no_offer"  # not one's own
    listener = GroupListener(events.room_group(code))
    try:
        offer(code, bob, "draw", "accept")
        received = [listener.receive(), listener.receive()]
    finally:
        listener.close()
    assert {"type": "room.offer", "kind": "draw", "seat": 2, "action": "accept"} in received
    game = game_of(code)
    assert (game.status, game.reason, game.winner_seat) == (GameStatus.DRAWN, EndReason.AGREEMENT, None)
    post_games_run()  # the rating: the post-game work, once the end committed
    assert sorted(RatingChange.objects.filter(game=game).values_list("score", flat=True)) == [0.5, 0.5]
    assert room_snapshot(code)["game"]["offers"] == []


@pytest.mark.django_db
def test_a_draw_offer_lapses_when_the_opponent_moves_not_when_the_offerer_does():
    code, ann, bob = pair()
    offer(code, ann, "draw", "offer")  # on her own turn
    play(code, [ann, bob], "a1")  # her own move: the offer stands
    assert game_of(code).draw_offer_seat == 1
    play(code, [ann, bob], "b1", start=1)  # Bob's move answers it
    assert game_of(code).draw_offer_seat is None
    assert refused(offer, code, bob, "draw", "accept") == "no_offer"


@pytest.mark.django_db
def test_one_draw_offer_per_ten_plies_declined_or_not():
    code, ann, bob = pair()
    offer(code, ann, "draw", "offer")
    assert refused(offer, code, ann, "draw", "offer") == "offer_limited"  # it stands already
    offer(code, bob, "draw", "decline")
    assert game_of(code).draw_offer_seat is None
    play(code, [ann, bob], "a1 a1 a1 a1 b1 b1 b1 b1 c1")  # ply 9
    assert refused(offer, code, ann, "draw", "offer") == "offer_limited"  # 9 plies after her last
    play(code, [ann, bob], "c1", start=9)
    offer(code, ann, "draw", "offer")  # ply 10: allowed again
    offer(code, bob, "draw", "offer")  # offering back accepts
    assert game_of(code).reason == EndReason.AGREEMENT


@pytest.mark.django_db
def test_the_offerer_may_withdraw_and_nothing_is_answered_twice():
    code, ann, bob = pair()
    assert refused(offer, code, bob, "draw", "decline") == "no_offer"
    offer(code, ann, "draw", "offer")
    offer(code, ann, "draw", "decline")  # withdrawn
    assert refused(offer, code, bob, "draw", "accept") == "no_offer"


@pytest.mark.django_db
def test_no_draw_offer_in_an_arena_before_ply_twenty():
    code, ann, bob = pair()
    Game.objects.filter(room__code=code).update(tournament=arena())
    assert refused(offer, code, ann, "draw", "offer") == "not_allowed"
    set_record(code, " ".join(["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4", "c1", "c2"] * 2))
    offer(code, ann, "draw", "offer")  # ply 20
    assert game_of(code).draw_offer_seat == 1


@pytest.mark.django_db
def test_the_cpu_accepts_a_draw_unless_it_sees_itself_winning():
    code, ann = vs_cpu(cpu_level=3)
    set_record(code, "a1 a2 b1 b2 d4 c2 d3")  # Yellow (the CPU) to move, and it wins at d2
    offer(code, ann, "draw", "offer")
    game = game_of(code)
    assert game.status == GameStatus.PLAYING and game.draw_offer_seat is None  # declined at once
    assert refused(offer, code, ann, "draw", "offer") == "offer_limited"  # the declined offer counted

    code, ann = vs_cpu(cpu_level=3)
    play(code, [ann, ann], "a1")
    offer(code, ann, "draw", "offer")
    assert (game_of(code).status, game_of(code).reason) == (GameStatus.DRAWN, EndReason.AGREEMENT)


# --- takebacks ---------------------------------------------------------------------------------------------
@pytest.mark.django_db(transaction=True)
def test_a_takeback_of_one_ply_and_of_two():
    code, ann, bob = pair(turn_seconds=30)
    play(code, [ann, bob], "a1")  # ply 1: Bob to move
    offer(code, ann, "takeback", "offer", seconds=10)
    assert refused(offer, code, ann, "takeback", "offer") == "offer_limited"
    listener = GroupListener(events.room_group(code))
    try:
        offer(code, bob, "takeback", "accept", seconds=12)
        sent = [listener.receive(), listener.receive()]
    finally:
        listener.close()
    game = game_of(code)
    assert (game.ply, game.record, game.to_move_seat) == (0, "", 1)
    assert game.deadline == at(12) + timedelta(seconds=30)  # the turn starts anew
    assert not Move.objects.filter(game=game).exists()
    snapshot = next(m["snapshot"] for m in sent if m["type"] == "room.snapshot")
    assert snapshot["taken_back"] == 1 and snapshot["game"]["moves"] == [] and snapshot["game"]["offers"] == []

    play(code, [ann, bob], "a1 b1 c1")  # ply 3: Bob to move; Bob's last move was b1, answered by c1
    offer(code, bob, "takeback", "offer")
    offer(code, ann, "takeback", "accept")
    game = game_of(code)
    assert (game.record, game.to_move_seat) == ("a1", 2)
    assert list(Move.objects.filter(game=game).values_list("peg", flat=True)) == ["a1"]


@pytest.mark.django_db
def test_a_takeback_request_lapses_on_a_move_and_needs_a_move_of_ones_own():
    code, ann, bob = pair()
    assert refused(offer, code, ann, "takeback", "offer") == "nothing_to_take_back"
    play(code, [ann, bob], "a1")
    assert refused(offer, code, bob, "takeback", "offer") == "nothing_to_take_back"
    offer(code, ann, "takeback", "offer")
    play(code, [ann, bob], "b1", start=1)
    assert refused(offer, code, bob, "takeback", "accept") == "no_offer"
    offer(code, ann, "takeback", "offer")
    offer(code, bob, "takeback", "decline")
    assert game_of(code).takeback_offer_seat is None and game_of(code).ply == 2


@pytest.mark.django_db
def test_takebacks_are_refused_in_ranked_games_and_arenas():
    code, ann, bob = pair(ranked=True)
    play(code, [ann, bob], "a1")
    assert refused(offer, code, ann, "takeback", "offer") == "not_allowed"
    code, ann, bob = pair()
    play(code, [ann, bob], "a1")
    Game.objects.filter(room__code=code).update(tournament=arena())
    assert refused(offer, code, ann, "takeback", "offer") == "not_allowed"


@pytest.mark.django_db
def test_the_cpu_grants_a_takeback_at_once_and_its_own_reply_goes_too():
    code, ann = vs_cpu()
    play(code, [ann, ann], "a1")  # the CPU is thinking
    job = CpuJob(game_id=str(game_of(code).pk), code=code, ply=1, seat=2, record="a1", level=3,
                 reason=DueReason.CPU_SEAT)
    offer(code, ann, "takeback", "offer")
    assert (game_of(code).ply, game_of(code).to_move_seat) == (0, 1)
    play(code, [ann, ann], "b1")  # back at ply 1, in another position: the job found a1 answers nothing
    assert game_cpu_move(job=job, peg="a2", now=at(200)) is False
    set_record(code, "b1 c1")  # the CPU replied
    offer(code, ann, "takeback", "offer")
    assert (game_of(code).record, game_of(code).to_move_seat) == ("", 1)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_takeback_and_a_move_racing_exactly_one_wins():
    for _ in range(3):
        code, ann, bob = pair()
        play(code, [ann, bob], "a1")
        offer(code, ann, "takeback", "offer")
        outcomes = race(
            lambda code=code, bob=bob: offer(code, bob, "takeback", "accept"),
            lambda code=code, bob=bob: game_drop(code=code, player=bob, peg="b1", ply=1, now=at(100)),
        )
        lost = [o for o in outcomes if isinstance(o, str)]
        assert len(lost) == 1 and lost[0] in {"no_offer", "stale"}, outcomes
        game = game_of(code)
        assert game.ply == Move.objects.filter(game=game).count() == (0 if lost[0] == "stale" else 2)


@pytest.mark.django_db
def test_a_takeback_request_withdrawn_or_declined_is_asked_again_only_after_a_move():
    code, ann, bob = pair()
    play(code, [ann, bob], "a1 b1")  # ply 2: Ann to move
    offer(code, bob, "takeback", "offer")
    offer(code, bob, "takeback", "decline")  # withdrawn
    # Offer and withdraw fifteen times a second: the opponent heard one request.
    assert {refused(offer, code, bob, "takeback", "offer") for _ in range(14)} == {"offer_limited"}
    assert game_of(code).takeback_offer_seat is None
    play(code, [ann, bob], "c1", start=2)  # a move: Bob may ask again, and Ann declines
    offer(code, bob, "takeback", "offer")
    offer(code, ann, "takeback", "decline")
    assert refused(offer, code, bob, "takeback", "offer") == "offer_limited"
    offer(code, ann, "takeback", "offer")  # the other seat's request is its own
    offer(code, bob, "takeback", "accept")
    assert game_of(code).ply == 2
    offer(code, bob, "takeback", "offer")  # a move taken back is a new position
