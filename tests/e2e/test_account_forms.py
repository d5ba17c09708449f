"""The account's flows submitted by Chromium, as a person submits them (issue 46): register and log in on
the home page; on the account page (/account) add the address, choose an email, change the password and
make a token; ask for a reset link on /accounts/reset, set the new password on the link's page and close
the account on /accounts/delete. The server's CSRF check reads the browser's Origin header, which the
pages' referrer policy decides: only a real browser's POST can show that the forms are accepted.

The links the server emails are read from its outbox (the server's SQLite file), their paths opened here.
"""

from __future__ import annotations

import re
import sqlite3
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def emailed_path(database: Path, kind: str, to: str) -> str:
    """The path of the link in the latest ``kind`` email queued to ``to`` (waiting a little for it)."""
    deadline = time.monotonic() + 10
    while True:
        with sqlite3.connect(database) as db:
            row = db.execute("SELECT body FROM mail_outboundemail WHERE kind = ? AND \"to\" = ? ORDER BY id DESC",
                             (kind, to)).fetchone()
        if row is not None or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert row is not None, f"no {kind} email to {to}"
    match = re.search(r"https?://[^/\s]+(/accounts/[^\s]+)", row[0])
    assert match, row[0]
    return match.group(1)


def submit(page: Page, button: str = "main form button[type=submit]") -> None:
    with page.expect_navigation():
        page.locator(button).click()


def test_reset_and_close_forms_work_in_a_browser(new_page, server_sqlite) -> None:  # type: ignore[no-untyped-def]
    page = new_page()
    page.goto("/")
    page.fill("#register-username", "forms_ann")
    page.fill("#register-password", "correct horse")
    page.locator("#register").click()
    expect(page.locator("#account-username")).to_have_text("forms_ann")
    page.get_by_role("link", name="Your account").click()
    expect(page.locator("#acct-username")).to_have_text("forms_ann")
    page.fill("#email-address", "ann@example.com")
    page.get_by_role("button", name="Send a confirmation link").click()
    expect(page.locator("#email-now")).to_contain_text("ann@example.com, waiting for you to follow the link")
    page.goto(emailed_path(server_sqlite, "confirm", "ann@example.com"))
    expect(page.locator("main h1")).to_have_text("Address confirmed")

    page.get_by_role("link", name="Account", exact=True).click()  # the header's link, once signed in
    expect(page.locator("#email-now")).to_have_text("ann@example.com, confirmed.")
    page.get_by_label("someone challenges me").check()
    expect(page.locator("#notify-said")).to_have_text("Saved.")
    page.fill("#password-current", "correct horse")
    page.fill("#password-new", "new horse 4d")
    page.get_by_role("button", name="Change the password").click()
    expect(page.locator("#password-said")).to_contain_text("Your password is changed")
    page.fill("#token-description", "my bot")
    page.get_by_role("button", name="Create a token").click()
    expect(page.locator("#token-said")).to_contain_text("shown this once")
    expect(page.locator("#tokens li")).to_contain_text("my bot")
    page.reload()
    expect(page.get_by_label("someone challenges me")).to_be_checked()
    expect(page.locator("#acct-username")).to_have_text("forms_ann")  # still signed in after the change

    guest = new_page()  # another device: the person who forgot the password
    guest.goto("/")
    guest.get_by_role("link", name="Forgot your password?").click()
    expect(guest).to_have_url(re.compile(r"/accounts/reset$"))
    guest.fill("#id_name", "forms_ann")
    submit(guest)
    expect(guest.locator("main h1")).to_have_text("Check your email")
    guest.goto(emailed_path(server_sqlite, "reset", "ann@example.com"))
    guest.fill("#id_password", "battery staple 9")
    submit(guest)
    expect(guest.locator("main h1")).to_have_text("Password changed")

    guest.goto("/")
    guest.fill("#login-username", "forms_ann")
    guest.fill("#login-password", "battery staple 9")
    guest.locator("#login").click()
    expect(guest.locator("#account-username")).to_have_text("forms_ann")
    guest.goto("/accounts/delete")
    guest.fill("#id_password", "battery staple 9")
    guest.check("#id_sure")
    submit(guest)
    expect(guest.locator("main h1")).to_have_text("Account closed")
    assert page.js_errors == [] and guest.js_errors == []
