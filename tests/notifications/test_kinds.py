"""The one registry of notification kinds: each kind registered with its text by the app that sends it,
none by notifications for another app; a kind claimed twice is refused; a text falls back to the stored one."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from notifications.kinds import KINDS, Kinds

ROOT = Path(__file__).resolve().parents[2]

# Each kind and the app that sends it (so registers it and writes its text).
SENT_BY = {
    "challenge": "bots", "challenge_accepted": "bots", "challenge_declined": "bots", "challenge_expired": "bots",
    "followed": "notifications", "arena_starting": "tournaments",
    "your_turn": "correspondence", "time_running_out": "correspondence", "game_over": "correspondence",
    "paired": "correspondence",
}


def test_every_kind_is_registered_with_its_text_by_the_app_that_sends_it():
    assert {kind: KINDS[kind].__module__.split(".")[0] for kind in KINDS} == SENT_BY


def test_notifications_names_no_other_apps_kind():
    others = {kind for kind, app in SENT_BY.items() if app != "notifications"}
    named = {
        (path.name, node.value)
        for path in (ROOT / "notifications").glob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Constant) and node.value in others
    }
    assert named == set()


def _hello(data: Mapping[str, Any]) -> str:
    return f"hello {data['name']}"


def test_a_kind_registered_again_with_its_text_changes_nothing_with_another_is_refused():
    kinds = Kinds()
    kinds.register("hello", _hello)
    kinds.register("hello", _hello)
    assert list(kinds) == ["hello"]
    with pytest.raises(ValueError, match="registered already"):
        kinds.register("hello", lambda data: "another")
    assert kinds.text("hello", {"name": "ann"}, stored="s") == "hello ann"


def test_the_stored_text_is_shown_for_a_kind_not_registered_and_for_data_its_text_cannot_use():
    kinds = Kinds()
    kinds.register("hello", _hello)
    assert kinds.text("gone", {"name": "ann"}, stored="stored") == "stored"
    assert kinds.text("hello", {}, stored="stored") == "stored"
    assert "gone" not in kinds and "hello" in kinds
