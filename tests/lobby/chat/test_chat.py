"""Room chat services with a fixed clock: who writes where, the limits, the rate, the history, reading."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from common.errors import Refused
from live.messages import decode
from lobby.chat.selectors import HISTORY_SIZE, chat_history
from lobby.chat.services import MAX_CHARS, chat_say, clean_text
from lobby.chat.visibility import ChatView
from lobby.models import ChatMessage, Room
from lobby.play.moves import game_resign, game_start
from lobby.protocol import messages
from lobby.protocol.room import PHRASES
from lobby.rooms.services import room_create, room_set_rules, room_sit, rooms_close_idle
from players.services import player_create, player_rename
from tests.layerkit import GroupListener

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


@pytest.fixture
def room():
    """Ann hosts in seat 1, Bob sits in seat 2, Cy watches (a player without a seat)."""
    ann = player_create(name="Ann", now=T0)
    bob = player_create(name="Bob", now=T0)
    cy = player_create(name="Cy", now=T0)
    code = room_create(host=ann, rules={}, now=T0).code
    room_sit(code=code, player=bob, now=T0)
    return code, ann, bob, cy


def refused(call) -> str:
    with pytest.raises(Refused) as err:
        call()
    return err.value.code


# --- what a message may say ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("  hello  ", "hello"),
        ("one\nmore\tgame?", "one more game?"),
        ("bell\x07 and nul\x00 and del\x7f", "bell and nul and del"),
        ("c1 \x85 next line", "c1   next line"),  # NEL is a control character and a space
        ("para\u2029graph", "para graph"),
        ("\u202eevil\u202c text \u2066x\u2069", "evil text x"),
        ("lone \ud800 surrogate", "lone  surrogate"),
        ("<script>alert(1)</script>", "<script>alert(1)</script>"),  # text stays text: shown, never run
        ("gg 👍🏽 👨‍👩‍👧", "gg 👍🏽 👨‍👩‍👧"),  # the joiner inside an emoji is kept
    ],
)
def test_text_is_cleaned(raw, stored):
    assert clean_text(raw) == stored


@pytest.mark.parametrize("raw", ["", "   ", "\n\t\r", "\x00\x01", "\u202e"])
def test_nothing_left_is_empty(raw):
    assert refused(lambda: clean_text(raw)) == "empty"


def test_length_counts_after_trimming_and_cleaning():
    assert clean_text("  " + "x" * MAX_CHARS + "\n") == "x" * MAX_CHARS
    assert clean_text("x" * MAX_CHARS + "\x00" * 10) == "x" * MAX_CHARS
    assert refused(lambda: clean_text("x" * (MAX_CHARS + 1))) == "too_long"


# --- who may write where ------------------------------------------------------------------------------
def test_the_seated_write_in_the_players_chat_only(room):
    code, ann, bob, _cy = room
    said = chat_say(code=code, player=bob, chat="players", text="hi", now=T0)
    assert said["chat"] == "players" and said["text"] == "hi"
    assert refused(lambda: chat_say(code=code, player=ann, chat="spectators", text="hi", now=T0)) == "not_allowed"


def test_spectators_write_in_the_spectators_chat_only(room):
    code, _ann, _bob, cy = room
    said = chat_say(code=code, player=cy, chat="spectators", text="go Ann", now=T0)
    assert said["chat"] == "spectators"
    assert refused(lambda: chat_say(code=code, player=cy, chat="players", text="hi", now=T0)) == "not_allowed"


def test_standing_up_moves_a_person_to_the_spectators_chat(room):
    from lobby.rooms.services import room_stand

    code, _ann, bob, _cy = room
    room_stand(code=code, player=bob, now=T0)
    assert refused(lambda: chat_say(code=code, player=bob, chat="players", text="hi", now=T0)) == "not_allowed"
    assert chat_say(code=code, player=bob, chat="spectators", text="hi", now=T0)["chat"] == "spectators"


def test_the_host_turns_the_spectators_chat_off_and_on(room):
    code, ann, bob, cy = room
    assert Room.objects.get(code=code).spectator_chat is True  # on by default
    assert refused(lambda: room_set_rules(code=code, player=bob, changes={"spectator_chat": False}, now=T0)) == (
        "not_host"
    )
    assert refused(lambda: room_set_rules(code=code, player=ann, changes={"spectator_chat": "off"}, now=T0)) == (
        "bad_rules"
    )
    room_set_rules(code=code, player=ann, changes={"spectator_chat": False}, now=T0)
    assert refused(lambda: chat_say(code=code, player=cy, chat="spectators", text="hi", now=T0)) == "not_allowed"
    # The players' chat is not a house rule: it stays open.
    assert chat_say(code=code, player=ann, chat="players", text="hi", now=T0)["chat"] == "players"
    room_set_rules(code=code, player=ann, changes={"spectator_chat": True}, now=T0)
    assert chat_say(code=code, player=cy, chat="spectators", text="back", now=T0)["text"] == "back"


def test_phrases_are_stored_as_keys(room):
    code, ann, _bob, _cy = room
    for phrase in PHRASES:
        said = chat_say(code=code, player=ann, chat="players", phrase=phrase, now=T0 + timedelta(minutes=1))
        assert said["phrase"] == phrase and "text" not in said
    assert refused(lambda: chat_say(code=code, player=ann, chat="players", phrase="gl_hf", now=T0)) == "bad_frame"
    assert refused(lambda: chat_say(code=code, player=ann, chat="lobby", text="hi", now=T0)) == "bad_frame"
    assert refused(lambda: chat_say(code=code, player=ann, chat="players", now=T0)) == "bad_frame"


def test_no_chat_in_a_closed_room(room):
    code, ann, _bob, _cy = room
    rooms_close_idle(now=T0 + timedelta(days=2), idle=timedelta(hours=24))
    assert refused(lambda: chat_say(code=code, player=ann, chat="players", text="hi", now=T0)) == "no_room"


def test_refused_messages_are_not_stored(room):
    code, ann, _bob, cy = room
    for call in (
        lambda: chat_say(code=code, player=ann, chat="players", text=" \n ", now=T0),
        lambda: chat_say(code=code, player=ann, chat="players", text="x" * 201, now=T0),
        lambda: chat_say(code=code, player=cy, chat="players", text="hi", now=T0),
    ):
        refused(call)
    assert not ChatMessage.objects.exists()


# --- what is stored, and what is not touched ---------------------------------------------------------
def test_a_message_carries_id_author_at_the_time_chat_text_and_time(room):
    code, ann, _bob, _cy = room
    said = chat_say(code=code, player=ann, chat="players", text=" Good one ", now=T0)
    player_rename(player=ann, name="Annie")
    later = chat_say(code=code, player=ann, chat="players", text="again", now=T0 + timedelta(seconds=30))
    assert said == {
        "id": ChatMessage.objects.get(text="Good one").pk,
        "chat": "players",
        "player": {"id": str(ann.id), "name": "Ann"},
        "text": "Good one",
        "at": "2026-11-29T12:00:00.000Z",
    }
    assert later["player"]["name"] == "Annie" and later["id"] > said["id"]
    assert [m["player"]["name"] for m in chat_history(code=code, reads={"players"})] == ["Ann", "Annie"]


def test_a_message_is_not_a_room_change(room):
    code, ann, _bob, cy = room
    before = Room.objects.get(code=code)
    chat_say(code=code, player=ann, chat="players", text="hi", now=T0 + timedelta(minutes=5))
    chat_say(code=code, player=cy, chat="spectators", phrase="good_luck", now=T0 + timedelta(minutes=5))
    after = Room.objects.get(code=code)
    assert (after.version, after.last_activity_at) == (before.version, before.last_activity_at)


# --- the rate: 5 messages per 10 s per player --------------------------------------------------------
def test_the_sixth_message_within_ten_seconds_is_refused(room):
    code, ann, bob, _cy = room
    for i in range(5):
        chat_say(code=code, player=ann, chat="players", text=f"m{i}", now=T0 + timedelta(seconds=i))
    assert refused(lambda: chat_say(code=code, player=ann, chat="players", text="m5",
                                    now=T0 + timedelta(seconds=9.999))) == "rate_limited"
    # Phrases count too, and another player is not limited by Ann's talk.
    assert refused(lambda: chat_say(code=code, player=ann, chat="players", phrase="thanks",
                                    now=T0 + timedelta(seconds=9.999))) == "rate_limited"
    chat_say(code=code, player=bob, chat="players", text="me too", now=T0 + timedelta(seconds=9.999))
    # Ten seconds after the first, one slot is free again; one, not two.
    chat_say(code=code, player=ann, chat="players", text="m6", now=T0 + timedelta(seconds=10))
    assert refused(lambda: chat_say(code=code, player=ann, chat="players", text="m7",
                                    now=T0 + timedelta(seconds=10))) == "rate_limited"
    assert ChatMessage.objects.filter(player=ann).count() == 6


def test_the_rate_counts_every_room_of_the_player(room):
    code, ann, _bob, _cy = room
    other = room_create(host=ann, rules={}, now=T0).code
    for i in range(3):
        chat_say(code=code, player=ann, chat="players", text=f"a{i}", now=T0)
    for i in range(2):
        chat_say(code=other, player=ann, chat="players", text=f"b{i}", now=T0)
    assert refused(lambda: chat_say(code=other, player=ann, chat="players", text="b2", now=T0)) == "rate_limited"


def test_refused_messages_do_not_use_up_the_rate(room):
    code, ann, _bob, _cy = room
    for _ in range(6):
        refused(lambda: chat_say(code=code, player=ann, chat="players", text="", now=T0))
    for i in range(5):
        chat_say(code=code, player=ann, chat="players", text=f"m{i}", now=T0)


# --- history ------------------------------------------------------------------------------------------
def test_history_is_the_latest_fifty_readable_oldest_first(room):
    code, ann, _bob, cy = room
    for i in range(60):
        now = T0 + timedelta(seconds=3 * i)  # slow enough for the rate
        if i % 3 == 0:
            chat_say(code=code, player=cy, chat="spectators", text=f"s{i}", now=now)
        else:
            chat_say(code=code, player=ann, chat="players", text=f"p{i}", now=now)
    both = chat_history(code=code, reads={"players", "spectators"})
    assert len(both) == HISTORY_SIZE == 50
    assert [m["text"] for m in both] == [("s" if i % 3 == 0 else "p") + str(i) for i in range(10, 60)]
    players_only = chat_history(code=code, reads={"players"})
    assert [m["text"] for m in players_only] == [f"p{i}" for i in range(60) if i % 3 != 0][-50:]
    assert chat_history(code=code, reads=set()) == []
    other = room_create(host=ann, rules={}, now=T0).code
    assert chat_history(code=other, reads={"players", "spectators"}) == []


# --- who reads what, and when -------------------------------------------------------------------------
def view(snapshot_game, *, seated, spectator_chat=True):
    player = {"id": "p1", "name": "Ann"}
    snapshot = {
        "seats": [{"seat": 1, "player": player if seated else None}, {"seat": 2, "player": None}],
        "game": snapshot_game,
        "rules": {"spectator_chat": spectator_chat},
    }
    return ChatView.from_snapshot(snapshot, player_id="p1")


PLAYING_2 = {"number": 2, "status": "playing"}
OVER_2 = {"number": 2, "status": "won"}
OVER_1 = {"number": 1, "status": "drawn"}


@pytest.mark.parametrize(
    ("game", "seated", "spectator_chat", "reads"),
    [
        (None, True, True, {"players", "spectators"}),
        (PLAYING_2, True, True, {"players"}),  # a seated player during their game
        (OVER_2, True, True, {"players", "spectators"}),  # ... and after it
        (PLAYING_2, False, True, {"players", "spectators"}),  # the audience during the game
        (None, False, False, {"players"}),  # the house rule turns it off for everyone
        (OVER_2, True, False, {"players"}),
    ],
)
def test_who_reads_which_chat(game, seated, spectator_chat, reads):
    assert view(game, seated=seated, spectator_chat=spectator_chat).reads() == reads


def test_an_anonymous_connection_is_a_spectator():
    snapshot = {"seats": [{"seat": 1, "player": {"id": "p1", "name": "Ann"}}], "game": PLAYING_2,
                "rules": {"spectator_chat": True}}
    assert ChatView.from_snapshot(snapshot, player_id=None).reads() == {"players", "spectators"}


@pytest.mark.parametrize(
    ("game", "seated", "chat", "written_in_game", "delivered"),
    [
        (PLAYING_2, True, "players", 2, True),
        (PLAYING_2, True, "spectators", 2, False),  # no coaching during the game
        (PLAYING_2, False, "spectators", 2, True),
        (OVER_2, True, "spectators", None, True),  # between games
        (OVER_2, True, "spectators", 2, True),  # written during game 2, arriving after its end was seen
        # This connection has not yet seen game 2 start: it gets the message when game 2 ends.
        (OVER_1, True, "spectators", 2, False),
        (None, True, "spectators", 1, False),
        (None, True, "spectators", None, True),
        (OVER_1, False, "spectators", 2, True),
    ],
)
def test_delivery_is_decided_per_connection(game, seated, chat, written_in_game, delivered):
    assert view(game, seated=seated).delivers(chat=chat, written_in_game=written_in_game) is delivered


def test_a_spectators_message_remembers_the_game_it_was_written_in(room, django_capture_on_commit_callbacks):
    code, ann, _bob, cy = room
    listener = GroupListener(f"room.{code}")
    try:
        with django_capture_on_commit_callbacks(execute=True):
            chat_say(code=code, player=cy, chat="spectators", text="before", now=T0)
            game = game_start(code=code, player=ann, now=T0)
            chat_say(code=code, player=cy, chat="spectators", text="during", now=T0 + timedelta(seconds=1))
            game_resign(code=code, player=ann, now=T0 + timedelta(seconds=2))
            chat_say(code=code, player=cy, chat="spectators", text="after", now=T0 + timedelta(seconds=3))
        found = []
        while len(found) < 3:
            message = decode(listener.receive())
            if isinstance(message, messages.RoomChat):
                found.append((message.message["text"], message.game))
    finally:
        listener.close()
    assert found == [("before", None), ("during", game.number), ("after", None)]
