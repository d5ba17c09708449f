"""config.serve: what each websocket handshake no longer spends (no timing: what is built, and when)."""

from __future__ import annotations

import os
import pprint

from autobahn.websocket import protocol as autobahn_protocol
from daphne.access import AccessLogGenerator
from daphne.cli import CommandLineInterface

from config import serving
from config.serve import InboxServer, quiet_handshakes, served_at, slim_protocol


def test_autobahn_formats_a_handshakes_settings_only_when_its_debug_line_is_written() -> None:
    quiet_handshakes()
    settings = [("openHandshakeTimeout", 5, "Factory")] * 3
    shown = getattr(autobahn_protocol, "pformat")(settings)  # noqa: B009  # not exported by autobahn
    assert not isinstance(shown, str)  # nothing formatted yet
    assert str(shown) == pprint.pformat(settings)  # what a written debug line shows


def test_an_access_log_to_dev_null_is_no_access_log(tmp_path) -> None:  # type: ignore[no-untyped-def]
    def action_logger_of(stream) -> object:  # type: ignore[no-untyped-def]
        server = InboxServer(application=None, endpoints=["tcp:port=0"], action_logger=AccessLogGenerator(stream))
        return server.action_logger

    with open(os.devnull, "a") as devnull, open(tmp_path / "access.log", "a") as kept:
        assert action_logger_of(devnull) is None
        assert isinstance(action_logger_of(kept), AccessLogGenerator)


def test_a_frame_sent_to_a_closing_or_closed_socket_is_dropped_without_an_error() -> None:
    sent: list[bytes] = []
    protocol = slim_protocol()()
    protocol.client_addr = ("127.0.0.1", 1)
    protocol.sendMessage = lambda payload, binary: sent.append(payload)  # the transport, as autobahn writes it
    protocol.state = protocol.STATE_OPEN
    protocol.serverSend("open")
    for state in (protocol.STATE_CLOSING, protocol.STATE_CLOSED):
        protocol.state = state
        protocol.serverSend("too late")  # autobahn raised Disconnected: "Attempt to send on a closed protocol"
    assert sent == [b"open"]


def test_the_links_in_emails_go_to_the_address_served_on_unless_site_url_says_otherwise() -> None:
    """``SITE_URL``'s value when unset (config.serve.main sets it from daphne's arguments)."""
    assert served_at(["-b", "127.0.0.1", "-p", "9000", "config.asgi:application"]) == "http://127.0.0.1:9000"
    assert served_at(["--bind", "0.0.0.0", "--port", "8080"]) == "http://127.0.0.1:8080"  # every address: this one
    assert served_at(["-b", "::1", "-p", "8001"]) == "http://[::1]:8001"
    assert served_at(["config.asgi:application"]) == "http://127.0.0.1:8000"  # daphne's own defaults


def test_a_handshake_waits_a_minute_for_its_accept_unless_the_command_line_says_otherwise() -> None:
    """daphne refuses (403) a websocket its application has not accepted within --websocket_connect_timeout,
    5 s unless given: in a connect storm, sockets queued behind the others' joins were refused so."""
    parse = CommandLineInterface().parser.parse_args
    given = parse(serving.arguments(["config.asgi:application"], 10.0))
    assert (given.websocket_connect_timeout, given.ping_interval, given.ping_timeout) == (60, 4, 4)
    own = parse(serving.arguments(["--websocket_connect_timeout", "9", "config.asgi:application"], 10.0))
    assert own.websocket_connect_timeout == 9
