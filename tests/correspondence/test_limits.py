"""Correspondence seeks inside the quotas (issue 47): seeks made per player and per address in an hour, and an
accepted seek counted as a room of both players and of the accepter's address, as an accepted challenge is."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from correspondence.models import CorrespondenceSeek

pytestmark = pytest.mark.django_db

PASSWORD = "four-in-a-row-3d!"


def registered(name: str, address: str = "10.0.0.1") -> Client:
    client = Client(REMOTE_ADDR=address)
    made = client.post("/api/accounts/register", json.dumps({"username": name, "password": PASSWORD}),
                       content_type="application/json")
    assert made.status_code == 201
    return client


def seek(client: Client):
    return client.post("/api/seeks", json.dumps({"days_per_move": 1, "ranked": False}), content_type="application/json")


def test_making_and_deleting_seeks_is_limited_per_player_and_per_address(settings):
    settings.SEEKS_PER_HOUR_PER_PLAYER, settings.SEEKS_PER_HOUR_PER_ADDRESS = 3, 5
    ann = registered("ann")
    for _ in range(3):  # make and delete: the open seeks never reach MAX_SEEKS, the hour's count does
        made = seek(ann)
        assert made.status_code == 201
        assert ann.delete(f"/api/seeks/{made.json()['id']}").status_code == 204
    refused = seek(ann)
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited" and refused["Retry-After"]
    # Another account from the same address has two left of the address's five.
    bob = registered("bob")
    assert [seek(bob).status_code for _ in range(3)] == [201, 201, 429]
    # Elsewhere, an account of its own is counted apart.
    assert seek(registered("cyd", address="10.0.0.2")).status_code == 201


def test_an_accepted_seek_counts_as_a_room_of_both_players(settings):
    settings.ROOMS_PER_HOUR_PER_DEVICE, settings.ROOMS_PER_HOUR_PER_ADDRESS = 2, 100
    seekers = [registered(name, address=f"10.0.1.{n}") for n, name in enumerate(("ann", "bob", "cyd"))]
    taker = registered("dia", address="10.0.2.1")
    ids = [seek(client).json()["id"] for client in seekers]
    assert [taker.post(f"/api/seeks/{seek_id}/accept").status_code for seek_id in ids[:2]] == [201, 201]
    refused = taker.post(f"/api/seeks/{ids[2]}/accept")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert CorrespondenceSeek.objects.filter(pk=ids[2]).exists()  # the refused one stays open
    # Their two rooms are the taker's hour of rooms; the first seeker has one room left.
    assert taker.post("/api/rooms", json.dumps({}), content_type="application/json").status_code == 429
    ann = seekers[0]
    assert [ann.post("/api/rooms", json.dumps({}), content_type="application/json").status_code
            for _ in range(2)] == [201, 429]


def test_accepts_are_counted_per_address(settings):
    settings.ROOMS_PER_HOUR_PER_DEVICE, settings.ROOMS_PER_HOUR_PER_ADDRESS = 100, 2
    seekers = [registered(name, address=f"10.0.1.{n}") for n, name in enumerate(("ann", "bob", "cyd"))]
    takers = [registered(name, address="10.0.3.1") for name in ("dia", "eve", "fay")]
    ids = [seek(client).json()["id"] for client in seekers]
    pairs = zip(takers, ids, strict=True)
    assert [taker.post(f"/api/seeks/{seek_id}/accept").status_code for taker, seek_id in pairs] == [201, 201, 429]
