"""A new device's first visit: no player yet is a normal state, so the page logs no error."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_first_visit_logs_no_api_error(new_page) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    api_errors: list[str] = []

    def on_console(message) -> None:  # type: ignore[no-untyped-def]
        # The API's part only: a missing /favicon.ico is the pages' business, not the API's.
        if message.type == "error" and "/api/" in message.location.get("url", ""):
            api_errors.append(f"{message.location['url']}: {message.text}")

    page.on("console", on_console)
    with page.expect_response("**/api/session") as session:
        page.goto("/")
    page.wait_for_load_state("networkidle")
    assert api_errors == [] and page.js_errors == []
    assert session.value.status == 200 and session.value.json()["player"] is None
    expect(page.locator("#account-guest")).to_be_visible()
    expect(page.locator("#me")).to_be_hidden()  # no player shown: the device has none yet
