"""Devices and accounts for the account tests, over the Django test client."""

from __future__ import annotations

import re

from django.test import Client

from mail.models import OutboundEmail

PASSWORD = "four-in-a-row-3d!"


def post(client, url, data=None, method="post"):
    return getattr(client, method)(url, data or {}, content_type="application/json",
                                   HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)


def device() -> Client:
    """A browser-like client that enforces CSRF; it has fetched its csrftoken cookie."""
    client = Client(enforce_csrf_checks=True)
    client.get("/api/session")
    return client


def account(name: str = "Ann") -> Client:
    """A device signed into a new account ``name``."""
    client = device()
    assert post(client, "/api/accounts/register", {"username": name, "password": PASSWORD}).status_code == 201
    return client


def link_in(email: OutboundEmail) -> str:
    """The path of the one link to this site in ``email``'s body."""
    found = re.search(r"http://testserver(/\S+)", email.body)
    assert found is not None, email.body
    return found.group(1)


def last_email(kind: str) -> OutboundEmail:
    found = OutboundEmail.objects.filter(kind=kind).order_by("-id").first()
    assert found is not None, f"no {kind} email queued"
    return found


def confirmed_account(name: str, address: str) -> Client:
    """A device signed into a new account ``name`` whose address ``address`` is confirmed."""
    client = account(name)
    assert post(client, "/api/accounts/email", {"email": address}).status_code == 202
    assert client.get(link_in(last_email("confirm"))).status_code == 200
    return client
