"""Lobby services with a fixed clock: idle rooms, presence, names."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command

from common.errors import Refused
from lobby.models import Room
from lobby.rooms.services import room_create, room_sit, rooms_close_idle
from players.services import clean_player_name, player_create

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_idle_rooms_are_closed_and_busy_ones_kept():
    host = player_create(name="Ann", now=T0)
    old = room_create(host=host, rules={}, now=T0)
    fresh = room_create(host=host, rules={}, now=T0 + timedelta(hours=20))
    closed = rooms_close_idle(now=T0 + timedelta(hours=25), idle=timedelta(hours=24))
    assert closed == [old.code]
    assert Room.objects.get(pk=old.pk).closed_at == T0 + timedelta(hours=25)
    assert Room.objects.get(pk=fresh.pk).closed_at is None
    with pytest.raises(Refused) as err:
        room_sit(code=old.code, player=host, now=T0 + timedelta(hours=26))
    assert err.value.code == "no_room"


def test_close_idle_rooms_command():
    host = player_create(name="Ann", now=T0)
    room = room_create(host=host, rules={}, now=T0)
    out = io.StringIO()
    call_command("close_idle_rooms", "--hours", "0", stdout=out)
    assert out.getvalue().strip() == f"closed 1 idle room(s): {room.code}"


@pytest.mark.parametrize(("raw", "clean"), [("  Ann  ", "Ann"), ("Ann   Lee", "Ann Lee"), ("Zoë", "Zoë")])
def test_names_are_tidied(raw, clean):
    assert clean_player_name(raw) == clean


@pytest.mark.parametrize("stored", ["not-a-uuid", 12, "00000000-0000-0000-0000-000000000000", None])
def test_a_session_with_a_bad_or_unknown_player_id_has_no_player(stored):
    from players.identity import SESSION_KEY, session_player

    assert session_player({SESSION_KEY: stored}) is None
