"""Two spellings of one username registered at the same instant on PostgreSQL: exactly one account."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from common.errors import Refused
from players.accounts import account_register
from players.models import Player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _quick_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def register_at_once(*names: str) -> list[str]:
    """Register each name in its own thread (its own connection), all released together; the outcomes."""
    barrier = threading.Barrier(len(names))
    outcomes = ["not run"] * len(names)

    def run(i: int, name: str) -> None:
        try:
            barrier.wait()
            account_register(player=None, username=name, password="four-in-a-row-3d!", now=timezone.now())
            outcomes[i] = "registered"
        except Refused as exc:
            outcomes[i] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, name)) for i, name in enumerate(names)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes


@pytest.mark.parametrize("round_", range(5))
def test_one_name_in_three_spellings_at_once_makes_one_account(round_):
    outcomes = register_at_once("ann", "ANN", "\uff21\uff4e\uff4e")
    assert sorted(outcomes) == ["name_taken", "name_taken", "registered"], outcomes
    assert User.objects.count() == 1 and Player.objects.exclude(user=None).count() == 1
