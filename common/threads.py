"""Every thread of a server process named for the operating system, so that what it runs can be counted from
outside by kind (``/proc/PID/task/*/comm``: ``harness.procfs.thread_names``).

Python 3.11 names its threads for itself only: the kernel sees every one as the process. Once
:func:`name_os_threads` has run (``config.asgi`` runs it at start-up), each thread started afterwards gives
the kernel the first 15 bytes of its Python name (Linux's limit) as it starts: the kept HTTP threads
``http-0_0``, a request's own thread past them ``http-own_0`` (``config.http``), the database lanes
``db_0``, ``pairing_0``, the mail thread ``mail_0``, the CPU lanes' threads ``cpu_0``, ``analysis_0``,
``board_0``, the event loop's default executor ``asyncio_0``; asgiref's own executors (its one shared
thread, and one per request context, which a request served Django's way holds to its end)
``ThreadPoolExecu``. Elsewhere than Linux nothing is named.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
import threading
from typing import Any

PR_SET_NAME = 15  # prctl(2)
MAX_BYTES = 15  # the kernel's TASK_COMM_LEN, less its NUL

_libc: Any = None  # Any: ctypes' library object
_installed = False


def os_name(name: str) -> None:
    """Give the calling thread ``name`` (its first 15 bytes) in the kernel's eyes; nothing off Linux."""
    global _libc
    if not sys.platform.startswith("linux"):
        return
    if _libc is None:
        _libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    _libc.prctl(PR_SET_NAME, name.encode()[:MAX_BYTES], 0, 0, 0)


def name_os_threads() -> None:
    """From now on, every thread started in this process takes its Python name for the kernel as it starts."""
    global _installed
    if _installed:
        return
    bootstrap = threading.Thread._bootstrap_inner  # type: ignore[attr-defined]  # the one start of every thread

    def named(thread: threading.Thread) -> None:
        os_name(thread.name)
        bootstrap(thread)

    threading.Thread._bootstrap_inner = named  # type: ignore[attr-defined]
    _installed = True
