"""What the browser tests share: reading the room page's state, dropping beads, opening rooms."""

from __future__ import annotations

import contextlib
import json
import math
import re
import time
from typing import Any

from playwright.sync_api import Page, expect
from websockets.sync.client import ClientConnection, connect

from harness.device import Device
from harness.room import OPEN_TIMEOUT, WAIT_TIMEOUT, follow, ws_base
from harness.site_pages import PARTY_RULES

MY_TURN = """() => {
  const s = window.__room && window.__room.state;
  return !!(s && s.game && s.game.status === 'playing' && s.you && s.game.to_move_seat === s.you.seat);
}"""
GAME_OVER = "() => { const g = window.__room.state && window.__room.state.game; return !!g && g.status !== 'playing'; }"
# Counts the page's requests in flight: a fetch until its answer's body is read (the scripts' next step, and
# any fetch it makes, follow in the same task). An init script: each page the page opens has it.
FETCHES = """(() => {
  let busy = 0;
  const track = (promise) => { busy++; return promise.finally(() => { busy--; }); };
  const fetch0 = window.fetch;
  window.fetch = function (...args) { return track(fetch0.apply(this, args)); };
  for (const name of ["json", "text", "blob", "arrayBuffer"]) {
    const read = Response.prototype[name];
    Response.prototype[name] = function () { return track(read.call(this)); };
  }
  window.__fetching = () => busy;
})()"""
# The page loaded and no request in flight for three frames running (polled each frame): its scripts have
# drawn what their answers say.
QUIET = """() => { const calm = document.readyState === "complete" && window.__fetching() === 0;
  window.__calm = calm ? (window.__calm || 0) + 1 : 0; return window.__calm >= 3; }"""


# ---- helpers --------------------------------------------------------------------------------------


def state(page: Page) -> dict:
    return page.evaluate("() => window.__room.state")


def ply(page: Page) -> int:
    return int(page.evaluate("() => window.__room.state.game.ply"))


def settle(page: Page, url: str, ready: str) -> None:
    """Opens a page and waits until its script has drawn what a check should see: ``ready`` is on the page,
    then it is quiet (``QUIET``; ``watch_fetches`` first). Network idle would wait half a second more a page."""
    page.goto(url)
    page.wait_for_selector(ready, state="attached")
    page.wait_for_function(QUIET)


def watch_fetches(page: Page) -> None:
    """From the next page ``page`` opens on, its requests in flight are counted (``FETCHES``, for ``settle``)."""
    page.add_init_script(FETCHES)


def wait_ply(page: Page, n: int) -> None:
    page.wait_for_function("(n) => { const g = window.__room.state.game; return !!g && g.ply >= n; }", arg=n)


def wait_my_turn(page: Page) -> None:
    page.wait_for_function(MY_TURN)


def peg_button(page: Page, peg: str):  # type: ignore[no-untyped-def]
    return page.get_by_role("button", name=f"Peg {peg}", exact=True)


def click_peg_3d(page: Page, peg: str) -> None:
    """Clicks the peg on the 3D canvas, at a point the board itself says is over that peg (a test that
    does is marked ``webgl``: its pages have the 3D board)."""
    point = page.evaluate("(p) => window.__room.board && window.__room.board.pegClientPoint(p)", peg)
    assert point is not None, "no 3D board on this page: is the test marked webgl?"
    page.mouse.click(point["x"], point["y"])


def drop(page: Page, peg: str, *, via: str = "top") -> None:
    """Tap a peg (a ghost bead shows), tap it again to drop; waits until the server applied the move."""
    wait_my_turn(page)
    before = ply(page)
    tap = click_peg_3d if via == "3d" else (lambda pg, p: peg_button(pg, p).click())
    tap(page, peg)
    page.wait_for_function("(p) => window.__room.selected === p", arg=peg)
    tap(page, peg)
    wait_ply(page, before + 1)
    assert state(page)["game"]["moves"][before] == peg


def api_post(page: Page, url: str, body: dict) -> dict:
    """A POST as the pages' scripts send one, from ``page``'s device (its cookies and CSRF token), without
    loading a page (the context's request client shares its cookies)."""
    request = page.context.request
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    if "csrftoken" not in cookies:
        assert request.get("/api/session").ok  # sets the CSRF cookie
        cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    answer = request.post(url, data=body, headers={"X-CSRFToken": cookies["csrftoken"]})
    assert answer.ok, (url, answer.status, answer.text())
    return dict(answer.json())


def open_new_room(page: Page, name: str, rules: dict, *, start: bool) -> None:
    """Names ``page``'s device and makes a room as the home page does (the API calls its form makes: a test
    whose point is elsewhere needs no home page; tests/e2e/test_lobby.py and test_connection.py click its
    buttons), then opens it as the home page sends its player there (``start``: the game starts at once)."""
    api_post(page, "/api/session", {"name": name})
    code = api_post(page, "/api/rooms", rules)["code"]
    page.goto(f"/r/{code}" + ("?start=1" if start else ""))
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9]+$"))


def send_drop(page: Page, peg: str) -> None:
    """Drops on ``peg`` through the room socket, with the frame a tap's drop sends (room/ctrl.js), once it is
    the page's turn; waits until the server applied it. For a test whose point is not the tapping."""
    wait_my_turn(page)
    before = ply(page)
    page.evaluate("([peg, ply]) => window.__room.socket.send({type: 'drop', peg, ply})", [peg, before])
    wait_ply(page, before + 1)
    assert state(page)["game"]["moves"][before] == peg


def create_room(new_page, host_name: str = "Ann", *, host_options: dict | None = None, **ctx):  # type: ignore[no-untyped-def]
    """Ann creates a party room (with the home page's defaults); returns her page, in the room, and the share
    link. ``host_options`` apply to her page alone (``{"webgl": True}``: hers has the 3D board)."""
    host = new_page(**ctx, **(host_options or {}))
    open_new_room(host, host_name, PARTY_RULES, start=False)
    host.wait_for_function("() => window.__room && window.__room.state")
    link = host.locator("#share-link").input_value()
    assert link.endswith(host.url.rsplit("/", 1)[1])
    return host, link


def create_party_room(  # type: ignore[no-untyped-def]
    new_page, host_name: str = "Ann", guest_name: str = "Bob", *, start: bool = True,
    host_options: dict | None = None, guest_options: dict | None = None, **ctx
):
    """Ann creates a party room (``create_room``); Bob opens the share link and takes the second seat.

    With ``start`` (the default) Ann then starts the game and both pages wait until it runs. ``ctx``
    (e.g. a phone's width and height) applies to both pages, ``host_options`` and ``guest_options`` to one.
    """
    host, link = create_room(new_page, host_name, host_options=host_options, **ctx)
    guest = new_page(**ctx, **(guest_options or {}))
    guest.goto(link)
    guest.wait_for_function("() => window.__room && window.__room.state")
    guest.locator("#sit-name").fill(guest_name)
    guest.get_by_role("button", name="Take a seat").click()
    guest.wait_for_function("() => window.__room.state.you.seat === 2")
    expect(host.locator("#seats")).to_contain_text(guest_name)
    if not start:
        return host, guest

    host.get_by_role("button", name="Start").click()
    host.wait_for_function("() => { const g = window.__room.state.game; return !!g && g.status === 'playing'; }")
    guest.wait_for_function("() => { const g = window.__room.state.game; return !!g && g.status === 'playing'; }")
    return host, guest


class Seat:
    """The other player of a room without a page of their own: a device (``harness.device.Device``) called
    ``name``, seated through the room's socket, which it reads as the page reads it (``harness.room.follow``).
    For a test that asserts only what the first page shows: a page of the opponent costs a browser
    context, its room page's load and each move drawn again (a second of Chromium's CPU and more)."""

    def __init__(self, server_url: str, code: str, name: str) -> None:
        self.device = Device(server_url)
        self.device.join(name)
        headers = {"Origin": server_url, "Cookie": self.device.cookie_header()}
        # The library answers the server's websocket pings from its own thread, as a browser does.
        self.opened = contextlib.ExitStack()
        self.conn: ClientConnection = self.opened.enter_context(connect(
            f"{ws_base(server_url)}/ws/rooms/{code}/", additional_headers=headers, open_timeout=OPEN_TIMEOUT,
            max_queue=None))
        self.room: dict[str, Any] | None = None
        self.syncing = False
        self.errors: list[dict[str, Any]] = []
        self.wait_room(lambda room: True)

    def send(self, **frame: Any) -> None:  # Any: a frame is JSON
        self.conn.send(json.dumps(frame))

    def wait_room(self, predicate: Any, timeout: float = WAIT_TIMEOUT) -> dict[str, Any]:
        """The room once it satisfies ``predicate``, reading the frames until then (a gap asks for ``sync``)."""
        end = time.monotonic() + timeout
        while self.room is None or not predicate(self.room):
            frame = json.loads(self.conn.recv(timeout=max(0.01, end - time.monotonic())))
            if frame["type"] == "error":
                self.errors.append(frame)
            self.room, self.syncing, ask = follow(self.room, self.syncing, frame)
            if ask:
                self.send(type="sync")
        return self.room

    def sit(self) -> None:
        """Take the free seat, as the page's Take a seat does."""
        self.send(type="sit")
        self.wait_room(lambda room: room["you"]["seat"] is not None)

    def drop(self, peg: str) -> None:
        """Drop on ``peg`` once it is this seat's turn, with the frame a tap's drop sends (``send_drop``); waits
        until the server applied it."""
        room = self.wait_room(lambda r: bool(r["game"] and r["game"]["status"] == "playing"
                                             and r["game"]["to_move_seat"] == r["you"]["seat"]))
        before = room["game"]["ply"]
        self.send(type="drop", peg=peg, ply=before)
        room = self.wait_room(lambda r: r["game"]["ply"] > before or bool(self.errors))
        assert not self.errors, self.errors
        assert room["game"]["moves"][before] == peg

    def close(self) -> None:
        self.opened.close()


def create_room_with_seat(new_page, seat, host_name: str = "Ann", guest_name: str = "Bob", *,  # type: ignore[no-untyped-def]
                          start: bool = True, **ctx):
    """As ``create_party_room``, with the guest a ``Seat`` (the ``seat`` fixture's, without a page) instead:
    Ann's page, in the room, and the guest."""
    host, link = create_room(new_page, host_name, **ctx)
    guest = seat(link.rsplit("/", 1)[1], guest_name)
    guest.sit()
    expect(host.locator("#seats")).to_contain_text(guest_name)
    if start:
        host.get_by_role("button", name="Start").click()
        host.wait_for_function("() => { const g = window.__room.state.game; return !!g && g.status === 'playing'; }")
    return host, guest


def start_cpu_game(new_page, level: str = "1", **ctx):  # type: ignore[no-untyped-def]
    """A game against the computer at ``level``, unrated and untimed, as the home page's Play the computer
    starts it; the player's page, in the room once the game is there."""
    page = new_page(**ctx)
    open_new_room(page, "Solo", {"cpu_level": int(level), "ranked": False, "turn_seconds": None}, start=True)
    page.wait_for_function("() => { const s = window.__room && window.__room.state; return !!(s && s.game); }")
    return page


def expected_step(peg: str, key: str, azimuth: float) -> str:
    """Where an arrow key should move the selection, computed independently from the camera's azimuth."""
    quarter = round(azimuth / (math.pi / 2)) % 4
    t = quarter * math.pi / 2
    # Screen-right and screen-up as (column, row) steps: x grows with the column, z shrinks as rows grow.
    right = (round(math.cos(t)), round(math.sin(t)))
    up = (round(-math.sin(t)), round(math.cos(t)))
    d = {"ArrowRight": right, "ArrowLeft": (-right[0], -right[1]), "ArrowUp": up, "ArrowDown": (-up[0], -up[1])}[key]
    col = "abcd".index(peg[0]) + d[0]
    row = int(peg[1]) - 1 + d[1]
    if not (0 <= col < 4 and 0 <= row < 4):
        return peg
    return f"{'abcd'[col]}{row + 1}"
