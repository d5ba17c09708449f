"""Real concurrent transactions for race tests: each call in its own thread (its own connection)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection

from common.errors import Refused


def race(*calls: Callable[[], object]) -> list[object]:
    """Run the calls released together by a barrier; each one's result, or the code of the Refused it raised.

    Any other exception fails the test here, and so does a thread that does not finish within 30 s.
    """
    barrier = threading.Barrier(len(calls))
    outcomes: list[object] = [None] * len(calls)

    def run(index: int, call: Callable[[], object]) -> None:
        try:
            barrier.wait()
            outcomes[index] = call()
        except Refused as exc:
            outcomes[index] = exc.code
        except BaseException as exc:  # surfaced below, in the test's own thread
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a racing call did not finish"
    for outcome in outcomes:
        assert not isinstance(outcome, BaseException), outcome
    return outcomes
