"""A real SMTP server for the email tests: aiosmtpd on a free port of this machine, in a thread of the test.

``SmtpServer.down()`` stops it (connections are refused, as from a mail server that is down) and ``up()``
starts it again on the same port; ``messages`` is every email it accepted, parsed; a recipient in ``refused``
is answered 550, as an unknown user is.
"""

from __future__ import annotations

import email
import email.policy
import logging
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from harness.ports import free_port

logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP command at INFO


class _Collect:
    def __init__(self, server: SmtpServer) -> None:
        self.server = server

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address in self.server.refused:
            return "550 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self.server.lock:
            self.server.messages.append(message)
        return "250 Message accepted for delivery"


class SmtpServer:
    def __init__(self) -> None:
        self.port = free_port()
        self.messages: list[EmailMessage] = []
        self.refused: set[str] = set()  # recipients it answers 550
        self.lock = threading.Lock()
        self.controller: Controller | None = None

    def up(self) -> SmtpServer:
        if self.controller is None:
            self.controller = Controller(_Collect(self), hostname="127.0.0.1", port=self.port)
            self.controller.start()
        return self

    def down(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def received(self, kind: str | None = None) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if kind is None or m["X-Email-Kind"] == kind]


@pytest.fixture
def smtp(settings: Any) -> Iterator[SmtpServer]:
    """A real SMTP server, up, with Django's SMTP backend pointed at it (a conftest imports this fixture)."""
    server = SmtpServer().up()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", server.port, 5
    yield server
    server.down()
