"""Accounts registered before usernames had a key: the migration keys them, and every one still logs in."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import RemoveField, RemoveIndex

from common.errors import Refused
from players.accounts import account_login, account_register
from players.models import Player
from tests.ratings.ratingkit import at

PASSWORD = "four-in-a-row-3d!"
OTHER_PASSWORD = "another-pass-phrase-7"
FULLWIDTH = "\uff23\uff41\uff53\uff45\uff56\uff49\uff43\uff54\uff49\uff4d"  # "Casevictim" in fullwidth letters


KEY_MIGRATION = ("players", "0003_player_username_key")


def columns() -> list[str]:
    with connection.cursor() as cursor:
        return [column.name for column in connection.introspection.get_table_description(cursor, Player._meta.db_table)]


def without_the_key_migration():
    """Undo ``KEY_MIGRATION`` alone (and the later index on the key) on the migrated test database, the
    schema of every other migration kept: undoing all that follow it and applying them again took 16 s.
    Returns the state without it and a function that applies it (and the index) again."""
    loader = MigrationLoader(connection)
    migration = loader.get_migration(*KEY_MIGRATION)
    latest = loader.project_state()
    unindexed = latest.clone()
    index = RemoveIndex("player", "player_username_prefix")  # players.0005's
    index.state_forwards("players", unindexed)
    keyless = unindexed.clone()
    RemoveField("player", "username_key").state_forwards("players", keyless)
    with connection.schema_editor() as editor:
        index.database_forwards("players", editor, latest, unindexed)
        migration.unapply(keyless.clone(), editor)
    assert "username_key" not in columns() and "closed_at" in columns()  # just before the key, nothing else undone

    def apply():
        with connection.schema_editor() as editor:
            keyed = migration.apply(keyless.clone(), editor)
            index.database_backwards("players", editor, keyed, latest)
        with connection.cursor() as cursor:
            assert "player_username_prefix" in connection.introspection.get_constraints(cursor, Player._meta.db_table)

    return keyless, apply


@pytest.mark.django_db(transaction=True)
def test_existing_accounts_get_their_key_oldest_first_and_all_still_log_in():
    state, apply = without_the_key_migration()
    User, OldPlayer = state.apps.get_model("auth", "User"), state.apps.get_model("players", "Player")

    def legacy_account(username: str, password: str):
        # What registering did before: Django stored the NFKC spelling, and nothing compared keys.
        user = User.objects.create(username=username, password=make_password(password))
        return OldPlayer.objects.create(name=username[:24], user=user, created_at=at()).pk

    original = legacy_account("casevictim", PASSWORD)
    victim = legacy_account("Casevictim", OTHER_PASSWORD)  # the fullwidth spelling, as it was stored
    other = legacy_account("Zoë", PASSWORD)
    guest = OldPlayer.objects.create(name="Guest", created_at=at()).pk

    apply()
    keys = dict(Player.objects.values_list("pk", "username_key"))
    assert keys == {original: "casevictim", victim: None, other: "zoë", guest: None}
    # The older account answers to every spelling; the newer one (no key) to the exact name it registered.
    assert account_login(username="CaseVictim", password=PASSWORD, address="10.0.0.1", now=at()).pk == original
    assert account_login(username=FULLWIDTH, password=OTHER_PASSWORD, address="10.0.0.1", now=at()).pk == victim
    assert account_login(username="ZOË", password=PASSWORD, address="10.0.0.1", now=at()).pk == other
    with pytest.raises(Refused) as taken:
        account_register(player=None, username="CASEVICTIM", password=PASSWORD, now=at())
    assert taken.value.code == "name_taken"
