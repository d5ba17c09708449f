"""Accounts, tokens and bots for the bot API's in-process tests."""

from __future__ import annotations

from datetime import UTC, datetime

from django.test import Client

from bots.accounts import bot_upgrade
from players.accounts import account_register
from players.models import Player
from players.tokens import token_create

NOW = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
PASSWORD = "four-in-a-row-3d!"


def account(username: str) -> Player:
    return account_register(player=None, username=username, password=PASSWORD, now=NOW)


def token_for(player: Player) -> str:
    return token_create(player=player, description="test", now=NOW)[1]


def bot(username: str) -> tuple[Player, str]:
    """A bot account and a token of it."""
    player = account(username)
    secret = token_for(player)
    bot_upgrade(player=player, now=NOW)
    return player, secret


class Api:
    """HTTP calls with a bearer token (no cookies, no CSRF)."""

    def __init__(self, secret: str) -> None:
        self.client = Client(enforce_csrf_checks=True)
        self.auth = {"HTTP_AUTHORIZATION": f"Bearer {secret}"}

    def post(self, path: str, data: object = None):  # type: ignore[no-untyped-def]
        return self.client.post(path, data if data is not None else {}, content_type="application/json", **self.auth)

    def get(self, path: str):  # type: ignore[no-untyped-def]
        return self.client.get(path, **self.auth)


def signed_in(player: Player) -> Client:
    """A browser signed in as ``player``'s account, with its CSRF cookie."""
    client = Client(enforce_csrf_checks=True)
    client.get("/api/session")
    response = client.post("/api/accounts/login", {"username": player.user.username, "password": PASSWORD},
                           content_type="application/json", HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    assert response.status_code == 200, response.content
    return client


def session_post(client: Client, path: str, data: object = None):  # type: ignore[no-untyped-def]
    return client.post(path, data if data is not None else {}, content_type="application/json",
                       HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
