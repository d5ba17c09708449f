"""Joining, pausing and withdrawing from arenas have quotas (issue 47): per player, and per client address,
where a guest costs nothing; past one, 429 ``rate_limited`` with ``Retry-After`` and nothing changed."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.arenakit import arena
from tournaments import limits
from tournaments.models import ArenaPlayer

pytestmark = pytest.mark.django_db


def guest_at(address: str, name: str) -> Client:
    """A device at ``address`` whose guest player is made by ``POST /api/session``."""
    client = Client(REMOTE_ADDR=address)
    made = client.post("/api/session", data=json.dumps({"name": name}), content_type="application/json")
    assert made.status_code == 201
    return client


def act(client: Client, arena_id: int, action: str):
    return client.post(f"/api/tournaments/{arena_id}/{action}", content_type="application/json")


def refused(answer) -> bool:
    return (answer.status_code == 429 and answer.json()["code"] == "rate_limited"
            and int(answer["Retry-After"]) > 0)


def test_a_player_is_refused_past_their_quota_of_joins_pauses_and_withdrawals(monkeypatch):
    monkeypatch.setattr(limits, "ACTIONS_PER_MINUTE_PER_PLAYER", 3)
    the_arena = arena()
    ann = guest_at("10.3.0.1", "Ann")
    assert [act(ann, the_arena.pk, a).status_code for a in ("join", "pause", "join")] == [200, 200, 200]
    assert refused(act(ann, the_arena.pk, "withdraw"))
    assert ArenaPlayer.objects.get(arena=the_arena).withdrawn is False  # the refused withdrawal changed nothing
    bob = guest_at("10.3.0.1", "Bob")  # another player at the same address is not counted as Ann
    assert act(bob, the_arena.pk, "join").status_code == 200


def test_the_guests_of_one_address_share_its_quota_and_another_address_is_not_counted(settings):
    settings.ARENA_ACTIONS_PER_MINUTE_PER_ADDRESS = 4
    the_arena = arena()
    guests = [guest_at("10.4.0.1", f"Guest {n}") for n in range(5)]
    assert [act(g, the_arena.pk, "join").status_code for g in guests[:4]] == [200] * 4
    assert refused(act(guests[4], the_arena.pk, "join"))  # a fresh guest: its first join, refused
    assert refused(act(guests[0], the_arena.pk, "withdraw"))
    assert ArenaPlayer.objects.filter(arena=the_arena, withdrawn=False).count() == 4
    assert act(guest_at("10.4.0.2", "Dee"), the_arena.pk, "join").status_code == 200
