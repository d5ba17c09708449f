"""Accounts registered before usernames had a key: the migration keys them, and every one still logs in."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from common.errors import Refused
from players.accounts import account_login, account_register
from players.models import Player
from tests.ratings.ratingkit import at

PASSWORD = "four-in-a-row-3d!"
OTHER_PASSWORD = "another-pass-phrase-7"
FULLWIDTH = "\uff23\uff41\uff53\uff45\uff56\uff49\uff43\uff54\uff49\uff4d"  # "Casevictim" in fullwidth letters


def migrate(*targets: tuple[str, str]):
    """Migrate the test database to ``targets``; the historical models there."""
    executor = MigrationExecutor(connection)
    executor.migrate(list(targets))
    return MigrationExecutor(connection).loader.project_state(list(targets)).apps


@pytest.mark.django_db(transaction=True)
def test_existing_accounts_get_their_key_oldest_first_and_all_still_log_in():
    old = migrate(("players", "0002_player_banned_at"))  # just before the key
    User, OldPlayer = old.get_model("auth", "User"), old.get_model("players", "Player")

    def legacy_account(username: str, password: str):
        # What registering did before: Django stored the NFKC spelling, and nothing compared keys.
        user = User.objects.create(username=username, password=make_password(password))
        return OldPlayer.objects.create(name=username[:24], user=user, created_at=at()).pk

    original = legacy_account("casevictim", PASSWORD)
    victim = legacy_account("Casevictim", OTHER_PASSWORD)  # the fullwidth spelling, as it was stored
    other = legacy_account("Zoë", PASSWORD)
    guest = OldPlayer.objects.create(name="Guest", created_at=at()).pk

    migrate(*MigrationExecutor(connection).loader.graph.leaf_nodes())
    keys = dict(Player.objects.values_list("pk", "username_key"))
    assert keys == {original: "casevictim", victim: None, other: "zoë", guest: None}
    # The older account answers to every spelling; the newer one (no key) to the exact name it registered.
    assert account_login(username="CaseVictim", password=PASSWORD, address="10.0.0.1", now=at()).pk == original
    assert account_login(username=FULLWIDTH, password=OTHER_PASSWORD, address="10.0.0.1", now=at()).pk == victim
    assert account_login(username="ZOË", password=PASSWORD, address="10.0.0.1", now=at()).pk == other
    with pytest.raises(Refused) as taken:
        account_register(player=None, username="CASEVICTIM", password=PASSWORD, now=at())
    assert taken.value.code == "name_taken"
