"""The Django admin for staff: players can be renamed (through the service) and banned; nothing else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from lobby.rooms.selectors import room_snapshot
from players.models import Player
from tests.ratings.ratingkit import make_table

pytestmark = pytest.mark.django_db

PLAYERS = "/admin/players/player/"


def test_the_admin_is_for_staff_only(client):
    assert client.get(PLAYERS).status_code == 302  # to the admin's login page
    User.objects.create_user(username="ann", password="pw-not-staff-1")
    client.login(username="ann", password="pw-not-staff-1")
    response = client.get(PLAYERS)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_staff_rename_an_offensive_name_and_the_room_shows_it(admin_client):
    table = make_table(names=("Rude Word", "Bob"))
    page = admin_client.get(PLAYERS)
    assert page.status_code == 200 and b"Rude Word" in page.content
    response = admin_client.post(f"{PLAYERS}{table.ann.pk}/change/", {"name": "  Renamed   by staff "})
    assert response.status_code == 302
    assert Player.objects.get(pk=table.ann.pk).name == "Renamed by staff"
    assert room_snapshot(table.code)["seats"][0]["player"]["name"] == "Renamed by staff"


def test_a_name_the_rules_refuse_is_refused_in_the_form(admin_client):
    table = make_table()
    response = admin_client.post(f"{PLAYERS}{table.ann.pk}/change/", {"name": "x" * 25})
    assert response.status_code == 200  # the form again, with the error
    assert b"at most 24 characters" in response.content
    assert Player.objects.get(pk=table.ann.pk).name == "Ann"


def test_staff_ban_and_unban_players_with_the_list_actions(admin_client):
    table = make_table()
    ids = [str(table.ann.pk), str(table.bob.pk)]
    response = admin_client.post(PLAYERS, {"action": "ban", "_selected_action": ids}, follow=True)
    assert b"Banned 2 player(s)" in response.content
    assert Player.objects.filter(banned_at__isnull=False).count() == 2
    response = admin_client.post(PLAYERS, {"action": "unban", "_selected_action": ids[:1]}, follow=True)
    assert b"Lifted the ban of 1 player(s): Ann" in response.content
    assert list(Player.objects.filter(banned_at__isnull=False).values_list("name", flat=True)) == ["Bob"]


def test_players_cannot_be_added_or_deleted_in_the_admin(admin_client):
    table = make_table()
    assert admin_client.get(f"{PLAYERS}add/").status_code == 403
    assert admin_client.post(f"{PLAYERS}{table.ann.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Player.objects.filter(pk=table.ann.pk).exists()
