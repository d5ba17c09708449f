"""Two spellings of one username registered at the same instant on PostgreSQL: exactly one account."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from players.accounts import account_register
from players.models import Player
from tests.racekit import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def register_at_once(*names: str) -> list[object]:
    """Register each name in its own thread (its own connection), all released together; the outcomes."""
    return race(*[
        lambda name=name: account_register(player=None, username=name, password="four-in-a-row-3d!",
                                           now=timezone.now()) and "registered"
        for name in names
    ])


@pytest.mark.parametrize("round_", range(5))
def test_one_name_in_three_spellings_at_once_makes_one_account(round_):
    outcomes = register_at_once("ann", "ANN", "\uff21\uff4e\uff4e")
    assert sorted(outcomes) == ["name_taken", "name_taken", "registered"], outcomes
    assert User.objects.count() == 1 and Player.objects.exclude(user=None).count() == 1
