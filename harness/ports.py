"""Free TCP ports on the loopback interface, and waiting for one to open or close."""

from __future__ import annotations

import socket
import time

HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port on ``127.0.0.1`` that nothing listens on at the moment of the call.

    The caller binds it soon after: another process may take it meanwhile (rare on a test machine).
    """
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, *, ready: bool, timeout: float) -> None:
    """Return once a TCP connection to ``port`` succeeds (``ready``) or is refused (not ``ready``).

    Raises:
        TimeoutError: it did not within ``timeout`` seconds.
    """
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection((HOST, port), timeout=1):
                accepted = True
        except OSError:
            accepted = False
        if accepted == ready:
            return
        time.sleep(0.05)
    raise TimeoutError(f"port {port} did not {'open' if ready else 'close'} within {timeout} s")
