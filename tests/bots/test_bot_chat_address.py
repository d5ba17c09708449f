"""A bot's chat counts against its client address too (issue 47), as a page's socket does: the accounts made
at one address are many, so the chat's quota per address holds for their bots' messages together."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from lobby.chat import limits
from tests.bots.botkit import Api, bot

pytestmark = pytest.mark.django_db


def test_two_bots_at_one_address_share_its_chat_quota(monkeypatch):
    cache.clear()
    monkeypatch.setattr(limits, "MESSAGES_PER_MINUTE_PER_ADDRESS", 3)
    red, yellow = Api(bot("robo")[1]), Api(bot("bobo")[1])  # both at the test client's 127.0.0.1
    made = red.post("/api/challenge/bobo", {"turn_seconds": 60, "colour": "red"}).json()
    game_id = yellow.post(f"/api/challenge/{made['id']}/accept").json()["game"]
    said = [api.post(f"/api/bot/game/{game_id}/chat", {"room": "player", "text": f"m{n}"}).status_code
            for n, api in enumerate((red, red, yellow))]  # each bot well inside its own 5 in 10 seconds
    assert said == [200, 200, 200]
    refused = yellow.post(f"/api/bot/game/{game_id}/chat", {"room": "player", "text": "one too many"})
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
