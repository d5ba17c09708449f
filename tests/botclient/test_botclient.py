"""The bot client's parts without a server: the engine line protocol (docs/bots.md's own example engine and
the built-in CPU adapter), the time budget, and which challenges it accepts."""

from __future__ import annotations

import re
import sys
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from botclient.api import ApiError
from botclient.bot import GamePlayer, budget_ms
from botclient.engines import EngineFailed, LineEngine, cpu_command
from botclient.policy import Policy

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def doc_engine(tmp_path: Path) -> list[str]:
    """The Python engine printed in docs/bots.md, as a file."""
    code = re.search(r"The whole of an engine in Python:\n\n```python\n(.*?)```", DOC.read_text(), re.S)
    assert code is not None
    path = tmp_path / "engine.py"
    path.write_text(code.group(1))
    return [sys.executable, str(path)]


def test_the_documented_engine_speaks_the_line_protocol(tmp_path):
    engine = LineEngine(doc_engine(tmp_path))
    try:
        full = ["a1"] * 4
        for _ in range(20):
            assert engine.best_move(full, budget_ms=100) != "a1"  # never the full peg
    finally:
        engine.close()
    assert engine.proc.returncode == 0  # "quit" ends it


def test_the_built_in_adapter_plays_the_sites_cpu():
    engine = LineEngine(cpu_command(5))
    try:
        # Red has three in a row on level 1 (a1 b1 c1): Master completes it.
        assert engine.best_move(["a1", "a2", "b1", "b2", "c1", "c2"], budget_ms=300) == "d1"
    finally:
        engine.close()


def test_an_engine_that_does_not_answer_fails_its_move(tmp_path):
    mute = tmp_path / "mute.py"
    mute.write_text("import sys\nfor line in sys.stdin:\n    print('info thinking', flush=True)\n")
    engine = LineEngine([sys.executable, str(mute)])
    with pytest.raises(EngineFailed):
        engine._answer(timeout=1.0)
    assert engine.proc.poll() is not None  # stopped, not left behind


def test_the_budget_keeps_clear_of_the_deadline():
    now = datetime(2025, 1, 1, tzinfo=UTC)
    soon = (now + timedelta(seconds=3)).isoformat()
    assert budget_ms(None, max_ms=5000, now=now) == 5000
    assert budget_ms(soon, max_ms=5000, now=now) == 1000
    assert budget_ms((now + timedelta(seconds=60)).isoformat(), max_ms=5000, now=now) == 5000
    assert budget_ms(now.isoformat(), max_ms=5000, now=now) == 50


def challenge(*, timer=30, ranked=False, bot=False, username="ann"):
    return {"turn_seconds": timer, "ranked": ranked,
            "challenger": {"name": username, "username": username, "title": "BOT" if bot else None}}


def test_the_policy_declines_with_the_reason_the_api_knows():
    policy = Policy(timers=frozenset({60}), rated="rated", only_from=frozenset({"ann"}), bots=False)
    assert policy.decline_reason(challenge(timer=60, ranked=True)) is None
    assert policy.decline_reason(challenge(timer=30, ranked=True)) == "timer"
    assert policy.decline_reason(challenge(timer=60, ranked=False)) == "rated"
    assert policy.decline_reason(challenge(timer=60, ranked=True, username="bob")) == "generic"
    assert policy.decline_reason(challenge(timer=60, ranked=True, bot=True)) == "generic"
    assert Policy(rated="casual").decline_reason(challenge(ranked=True)) == "casual"


class RefusingApi:
    """The client's Api answering a move with rate_limited ``refusals`` times, then taking it."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.sent: list[tuple[str, int | None]] = []

    def move(self, game_id: str, peg: str, *, ply: int | None = None) -> dict:
        self.sent.append((peg, ply))
        if len(self.sent) <= self.refusals:
            raise ApiError(429, "rate_limited", "Too many moves.", retry_after=0.01)
        return {"ok": True}


def test_a_rate_limited_move_is_sent_again_and_a_turn_is_played_once():
    api = RefusingApi(refusals=1)
    player = GamePlayer(api, "g", "red", lambda moves, budget_ms: "c3", 100, threading.Event())  # type: ignore[arg-type]
    state = {"moves": "", "deadline": None}
    player._turn(state)
    player._turn(state)  # the same state again (a resync): not played twice
    player._turn({"moves": "c3", "deadline": None})  # yellow's turn: nothing
    assert api.sent == [("c3", 0), ("c3", 0)]
