"""Chat on PostgreSQL with real concurrent transactions: no wait for the room lock, one rate for all tabs."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction
from django.utils import timezone

from common.errors import Refused
from lobby.chat.services import RATE_MESSAGES, chat_say
from lobby.models import ChatMessage, Room
from lobby.rooms.services import room_create, room_lock, room_sit
from players.services import player_create
from tests.racekit import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

# Generous: the machine is shared. A chat that waited for the room lock would wait for all of it.
PATIENCE_SECONDS = 20


def test_a_message_is_stored_and_sent_while_a_move_holds_the_room_lock():
    now = timezone.now()
    ann, cy = player_create(name="Ann", now=now), player_create(name="Cy", now=now)
    code = room_create(host=ann, rules={}, now=now).code
    locked, release = threading.Event(), threading.Event()

    def hold_the_room_lock() -> None:
        try:
            with transaction.atomic():
                room_lock(code)  # what every move, sit and start holds until it commits
                locked.set()
                release.wait(2 * PATIENCE_SECONDS)
        finally:
            connection.close()

    said: list[object] = []

    def say() -> None:
        try:
            said.append(chat_say(code=code, player=cy, chat="spectators", text="still here", now=timezone.now()))
            said.append(chat_say(code=code, player=ann, chat="players", text="me too", now=timezone.now()))
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_room_lock)
    holder.start()
    try:
        assert locked.wait(PATIENCE_SECONDS)
        speaker = threading.Thread(target=say)
        speaker.start()
        speaker.join(PATIENCE_SECONDS)
        finished_while_locked = not speaker.is_alive()
        assert finished_while_locked, "the chat waited for the room lock"
    finally:
        release.set()
        holder.join(PATIENCE_SECONDS)
    assert len(said) == 2
    assert ChatMessage.objects.filter(room__code=code).count() == 2
    assert Room.objects.get(code=code).version == 1


@pytest.mark.parametrize("round_", range(3))
def test_tabs_racing_share_one_rate(round_):
    now = timezone.now()
    ann, bob = player_create(name="Ann", now=now), player_create(name="Bob", now=now)
    code = room_create(host=ann, rules={}, now=now).code
    room_sit(code=code, player=bob, now=now)
    tabs = 8
    outcomes = race(
        *[lambda i=i: chat_say(code=code, player=ann, chat="players", text=f"tab {i}", now=now) for i in range(tabs)]
    )
    accepted = [o for o in outcomes if isinstance(o, dict)]
    assert len(accepted) == RATE_MESSAGES, outcomes
    assert sorted(o for o in outcomes if not isinstance(o, dict)) == ["rate_limited"] * (tabs - RATE_MESSAGES)
    assert ChatMessage.objects.filter(player=ann).count() == RATE_MESSAGES
    with pytest.raises(Refused):
        chat_say(code=code, player=ann, chat="players", text="one more", now=now)
