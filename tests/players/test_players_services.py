"""Players: names, and the rename hook the rooms register (the players layer never imports them)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from common.hooks import Hook, OnError, Runs
from lobby.rooms.handlers import rooms_player_renamed
from players import services
from players.services import PLAYER_RENAMED, player_create, player_rename

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_the_rooms_hook_is_registered_once_at_start_up():
    assert list(PLAYER_RENAMED.handlers).count(rooms_player_renamed) == 1


def test_a_rename_runs_every_hook_with_the_renamed_player(monkeypatch):
    seen = []
    renamed = Hook("player renamed", runs=Runs.INSIDE_TRANSACTION, on_error=OnError.PROPAGATE)
    renamed.register(lambda event: seen.append(event.player.name))
    monkeypatch.setattr(services, "PLAYER_RENAMED", renamed)
    player = player_create(name="Ann", now=NOW)
    player_rename(player=player, name="  Ann   Lee ")
    player_rename(player=player, name="Ann Lee")  # unchanged: no hook
    assert seen == ["Ann Lee"]
