"""A bot's move, chat and resignation go through the rooms' own services, with the room socket's refusals;
the upgrade; bots stay out of quick pairing and other people's rooms."""

from __future__ import annotations

import types
import uuid

import pytest
from django.core.cache import cache

from bots import limits
from common.errors import Refused
from games.models import Game, GameStatus, Move
from lobby.chat.selectors import chat_history
from lobby.pairing.matching import Pool
from lobby.pairing.seeks import seek_enter
from lobby.play.moves import game_resign, game_start
from lobby.rooms.services import room_create, room_sit
from players.models import Player
from ratings.models import PlayerRating
from tests.bots.botkit import NOW, Api, account, bot, session_post, signed_in, token_for

pytestmark = pytest.mark.django_db


def started(red_api: Api, yellow_name: str, yellow_api: Api) -> str:
    """A game between the token holders: ``red_api`` challenges as red, the other accepts; its id."""
    made = red_api.post(f"/api/challenge/{yellow_name}", {"turn_seconds": 60, "colour": "red"}).json()
    return str(yellow_api.post(f"/api/challenge/{made['id']}/accept").json()["game"])


@pytest.fixture
def two_bots():
    cache.clear()
    _, one = bot("robo")
    _, two = bot("bobo")
    red, yellow = Api(one), Api(two)
    return started(red, "bobo", yellow), red, yellow


def code_of(answer) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    return answer.status_code, answer.json().get("code", "ok")


def test_moves_and_the_room_sockets_refusals(two_bots):
    game_id, red, yellow = two_bots
    assert code_of(yellow.post(f"/api/bot/game/{game_id}/move/a1")) == (400, "not_your_turn")
    assert code_of(red.post(f"/api/bot/game/{game_id}/move/e9")) == (400, "bad_peg")
    assert code_of(red.post(f"/api/bot/game/{game_id}/move/a1")) == (200, "ok")
    # The same ply again: it is not red's turn any more; with the ply seen, it is stale.
    assert code_of(red.post(f"/api/bot/game/{game_id}/move/a2")) == (400, "not_your_turn")
    assert code_of(yellow.post(f"/api/bot/game/{game_id}/move/a2?ply=0")) == (409, "stale")
    for ply, (api, peg) in enumerate(((yellow, "a1"), (red, "a1"), (yellow, "a1")), start=1):
        assert code_of(api.post(f"/api/bot/game/{game_id}/move/{peg}?ply={ply}")) == (200, "ok")
    assert code_of(red.post(f"/api/bot/game/{game_id}/move/a1")) == (400, "peg_full")
    assert list(Move.objects.filter(game_id=game_id).values_list("peg", flat=True)) == ["a1"] * 4
    assert code_of(red.post(f"/api/bot/game/{game_id}/resign")) == (200, "ok")
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.winner_seat) == (GameStatus.RESIGNED, game.seat_of_colour("yellow"))
    assert code_of(yellow.post(f"/api/bot/game/{game_id}/move/b1")) == (400, "game_over")
    assert code_of(yellow.post(f"/api/bot/game/{game_id}/resign")) == (400, "game_over")


def test_a_game_of_others_and_unknown_games_are_refused(two_bots):
    game_id, red, yellow = two_bots
    eve = Api(token_for(account("eve")))
    assert code_of(eve.post(f"/api/bot/game/{game_id}/move/a1")) == (403, "not_your_game")
    assert code_of(eve.post(f"/api/bot/game/{game_id}/resign")) == (403, "not_your_game")
    assert code_of(red.post("/api/bot/game/not-a-uuid/move/a1")) == (404, "no_game")
    assert code_of(red.post("/api/bot/game/00000000-0000-0000-0000-000000000000/move/a1")) == (404, "no_game")
    assert code_of(red.post(f"/api/bot/game/{game_id}/move/a1?ply=x")) == (400, "bad_ply")
    assert Game.objects.get(pk=game_id).ply == 0


def frozen_at_now(monkeypatch) -> None:
    """Every request at one instant (the views read django.utils.timezone.now), and the cache's expiries on
    the same frozen clock (its counters live 3 s, which eleven requests may take on a loaded machine): a
    loaded machine must not spread them over two windows, nor let a counter expire among them."""
    monkeypatch.setattr("bots.views.timezone.now", lambda: NOW)
    frozen = types.SimpleNamespace(time=lambda: NOW.timestamp())
    monkeypatch.setattr("django.core.cache.backends.base.time", frozen)
    monkeypatch.setattr("django.core.cache.backends.locmem.time", frozen)


def test_moves_per_second_are_limited(two_bots, monkeypatch):
    game_id, red, yellow = two_bots
    frozen_at_now(monkeypatch)
    allowed = limits.MOVES_PER_SECOND
    answers = [code_of(yellow.post(f"/api/bot/game/{game_id}/move/a1")) for _ in range(allowed + 1)]
    assert answers[:allowed] == [(400, "not_your_turn")] * allowed and answers[allowed] == (429, "rate_limited")
    assert int(yellow.post(f"/api/bot/game/{game_id}/move/a1")["Retry-After"]) >= 1


def test_the_move_quota_is_one_per_account_and_game_however_the_id_is_spelt(two_bots, monkeypatch):
    game_id, red, yellow = two_bots
    frozen_at_now(monkeypatch)
    bobo = Player.objects.get(user__username="bobo")
    another_token = Api(token_for(bobo))  # the same account's second token shares its bucket
    plain = uuid.UUID(game_id)
    spellings = [str(plain).upper(), "%7B" + str(plain) + "%7D", plain.hex, f"urn:uuid:{plain}", game_id]
    answers = [code_of((yellow, another_token)[i % 2].post(f"/api/bot/game/{spellings[i % 5]}/move/a1"))
               for i in range(limits.MOVES_PER_SECOND + 1)]
    assert answers[:-1] == [(400, "not_your_turn")] * limits.MOVES_PER_SECOND
    assert answers[-1] == (429, "rate_limited")
    assert code_of(red.post(f"/api/bot/game/{game_id}/move/a1")) == (200, "ok")  # the opponent's own bucket


def test_chat_goes_to_the_rooms_chat(two_bots):
    game_id, red, yellow = two_bots
    assert code_of(red.post(f"/api/bot/game/{game_id}/chat", {"room": "player", "text": "good luck"})) == (200, "ok")
    assert code_of(red.post(f"/api/bot/game/{game_id}/chat", {"room": "lobby", "text": "x"})) == (400, "bad_chat")
    assert code_of(red.post(f"/api/bot/game/{game_id}/chat", {"room": "player", "text": " "})) == (400, "empty")
    code = Game.objects.select_related("room").get(pk=game_id).room.code
    assert [m["text"] for m in chat_history(code=code, reads=frozenset({"players"}))] == ["good luck"]


def test_upgrade_is_for_good_and_not_after_rated_games():
    ann = account("ann")
    api = Api(token_for(ann))
    assert code_of(api.post("/api/bot/account/upgrade")) == (200, "ok")
    assert Player.objects.get(pk=ann.pk).title == "BOT"
    assert code_of(api.post("/api/bot/account/upgrade")) == (409, "already_bot")
    profile = api.get(f"/api/players/{ann.pk}").json()
    assert (profile["title"], profile["username"]) == ("BOT", "ann")

    bob = account("bob")
    PlayerRating.objects.create(player=bob, games=1)
    assert code_of(Api(token_for(bob)).post("/api/bot/account/upgrade")) == (409, "games_played")
    assert Player.objects.get(pk=bob.pk).title is None


def test_no_upgrade_in_the_middle_of_a_game_nor_after_any_game_as_a_person():
    cyd, dan, eve = account("cyd"), account("dan"), account("eve")
    ranked = room_create(host=cyd, rules={"ranked": True}, now=NOW)
    room_sit(code=ranked.code, player=dan, now=NOW)
    game_start(code=ranked.code, player=cyd, now=NOW)  # being played: nothing is rated yet
    for person in (cyd, dan):
        assert code_of(Api(token_for(person)).post("/api/bot/account/upgrade")) == (409, "games_played")
    casual = room_create(host=eve, rules={"ranked": False}, now=NOW)
    game_start(code=casual.code, player=eve, now=NOW)  # against the CPU, unrated
    game_resign(code=casual.code, player=eve, now=NOW)
    assert code_of(Api(token_for(eve)).post("/api/bot/account/upgrade")) == (409, "games_played")
    assert not Player.objects.filter(bot_at__isnull=False).exists()


def test_bots_play_challenges_only():
    robo, secret = bot("robo")
    with pytest.raises(Refused) as seek:
        seek_enter(player=robo, channel_name="c1", pool=Pool(turn_seconds=None, ranked=False), now=NOW)
    assert seek.value.code == "bot_account"
    room = room_create(host=account("ann"), rules={}, now=NOW)
    with pytest.raises(Refused) as sit:
        room_sit(code=room.code, player=robo, now=NOW)
    assert sit.value.code == "bot_account"
    browser = signed_in(robo)
    made = session_post(browser, "/api/rooms", {})
    assert made.status_code == 403 and made.json()["code"] == "bot_account"
    seated = session_post(browser, f"/api/rooms/{room.code}/seat", {})  # the one table: 403 wherever it is refused
    assert seated.status_code == 403 and seated.json()["code"] == "bot_account"


def test_the_leaderboard_marks_bots_and_can_hide_them():
    robo, _ = bot("robo")
    ann = account("ann")
    for player in (robo, ann):
        PlayerRating.objects.create(player=player, games=3, rd=50, established_until=NOW.replace(year=2099))
    shown = Api(token_for(ann)).get("/api/ratings").json()["results"]
    assert {row["player"]["name"]: row["player"].get("title") for row in shown} == {"robo": "BOT", "ann": None}
    hidden = Api(token_for(ann)).get("/api/ratings?bots=false").json()
    assert [row["player"]["name"] for row in hidden["results"]] == ["ann"] and hidden["count"] == 1


def test_draw_offers_answered_through_the_bot_api(two_bots):
    game_id, red, yellow = two_bots
    assert code_of(red.post(f"/api/bot/game/{game_id}/draw/no")) == (409, "no_offer")
    assert code_of(red.post(f"/api/bot/game/{game_id}/draw/yes")) == (200, "ok")
    assert code_of(red.post(f"/api/bot/game/{game_id}/draw/yes")) == (400, "offer_limited")
    assert code_of(yellow.post(f"/api/bot/game/{game_id}/draw/no")) == (200, "ok")
    assert Game.objects.get(pk=game_id).draw_offer_seat is None
    assert code_of(yellow.post(f"/api/bot/game/{game_id}/draw/yes")) == (200, "ok")
    assert code_of(red.post(f"/api/bot/game/{game_id}/draw/yes")) == (200, "ok")  # offered back: agreed
    assert Game.objects.get(pk=game_id).status == GameStatus.DRAWN
    assert code_of(red.post(f"/api/bot/game/{game_id}/draw/yes")) == (400, "game_over")
