"""Browser tests: a real daphne server (embedded SQLite, in-memory layer) and Debian's Chromium.

The tests drive Chromium's headless shell (Debian's chromium-headless-shell, the build Playwright itself
runs headless: a third less CPU than the whole browser run headless); the tests marked ``desktop_chromium``,
about what only the whole browser does (it fetches the site's icon), drive Debian's chromium. Without them
these tests skip with a printed reason; in CI (CI=true) they fail instead.

Chromium renders WebGL in software here (SwiftShader), which cost half the suite's CPU: only the tests of
the 3D board (marked ``webgl``) have it; the others run in a Chromium with WebGL off, where every page
shows its top view in the board's place (``mountBoard`` in board3d.js). A test that wants one page of each
says so per page: ``new_page(webgl=True)``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.livekit import LiveServer, server_env, sqlite_database

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
HEADLESS_SHELL = Path(os.environ.get("CHROMIUM_HEADLESS_SHELL_PATH", "/usr/bin/chromium-headless-shell"))
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
BROWSER_ARGS = {
    # WebGL without a GPU: ANGLE on SwiftShader renders the three.js board in software; without
    # multisampling (a third of its CPU), which nothing the tests read depends on.
    True: [*CHROMIUM_ARGS, "--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--webgl-antialiasing-mode=none",
           "--webgl-msaa-sample-count=0"],
    # No WebGL at all: the pages fall back to the top view.
    False: [*CHROMIUM_ARGS, "--disable-webgl", "--disable-3d-apis"],
}
HAS_WEBGL = """() => { const c = document.createElement("canvas");
                       return !!(c.getContext("webgl2") || c.getContext("webgl")); }"""


def browser_server_env(**overrides: str) -> dict[str, str]:
    """A browser test's server environment (tests/livekit.py's ``server_env``) with DEBUG off, as deployed:
    the browser then keeps a page's scripts and styles for WhiteNoise's minute instead of asking for each of
    them again on every page load (DEBUG's ``max-age=0``: 27-40 requests a page, answered 304), and Django
    keeps no per-request debug state. 24 page loads: the server's CPU 1.8-2.0 s with DEBUG, 0.8 s without,
    Chromium's 5.8-5.9 s and 4.0-4.1 s. An error still logs its traceback to the server's log."""
    return server_env(**{"DEBUG": "0", "SECRET_KEY": "browser-tests-only", **overrides})


def _installed(path: Path, package: str) -> Path:
    if not path.exists():
        reason = f"{path} is missing (apt-get install -y {package}): skipping the browser tests"
        if IN_CI:
            pytest.fail(f"CI must run the browser tests, but {reason}")
        print(f"\n{reason}")
        pytest.skip(reason)
    return path


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    """Chromium's headless shell, which the browser tests drive."""
    return _installed(HEADLESS_SHELL, "chromium-headless-shell")


@pytest.fixture
def executable(request: pytest.FixtureRequest, chromium_path: Path) -> Path:
    """This test's browser: the headless shell, or for a test marked ``desktop_chromium`` the whole browser."""
    if request.node.get_closest_marker("desktop_chromium") is None:
        return chromium_path
    return _installed(CHROMIUM, "chromium")


class _Server:
    """Per test process (per xdist worker) the browser tests' server: a migrated daphne on a free port,
    embedded (no PostgreSQL, no Redis), with a quick CPU and an arena's pairing wave each second (the
    arena's test waits for one); started for the first test that wants it and
    kept for the browser tests that follow, whatever their module. Stopped with Chromium once no browser
    test comes next (``pytest_runtest_teardown``): an idle server still spends about 4% of a core (its
    ticker's and presence's rounds), for the minutes the worker's other tests take after the browser tests.
    Its post-game analyses wait for a quiet moment, as deployed (``ANALYSIS_BUSY_SHARE``): not in the middle
    of the next tests' pages, and at once for a replay that waits for its analysis (the only page then)."""

    def __init__(self) -> None:
        self.live: LiveServer | None = None

    def url(self, tmp_path_factory: pytest.TempPathFactory) -> str:
        if self.live is None:
            tmp = tmp_path_factory.mktemp("e2e-server")
            env = browser_server_env(SQLITE_PATH=sqlite_database(tmp), CPU_WORKERS="0", ARENA_WAVE_SECONDS="1")
            self.live = LiveServer(env, log_dir=tmp).start()
        return self.live.http

    def stop(self) -> None:
        live, self.live = self.live, None
        if live is not None:
            live.stop()


_SERVER = _Server()


@pytest.fixture(scope="session")
def _server_stopped_at_the_end() -> Iterator[None]:
    yield
    _SERVER.stop()


@pytest.fixture
def server_url(tmp_path_factory: pytest.TempPathFactory, chromium_path: Path, _server_stopped_at_the_end: None) -> str:
    """The browser tests' server (``_Server``): a module of tests with a server of its own overrides this."""
    return _SERVER.url(tmp_path_factory)


@pytest.fixture
def browser_server(server_url: str) -> LiveServer:
    """The browser tests' server (``_Server``) itself: its environment, for a command run beside it."""
    assert _SERVER.live is not None
    return _SERVER.live


@pytest.fixture
def server_sqlite(browser_server: LiveServer) -> Path:
    """The SQLite file of the browser tests' server (``_Server``), to read what it stored (its outbox)."""
    return Path(browser_server.env["SQLITE_PATH"])


class _Chromium:
    """Per test process (per xdist worker) a Chromium with WebGL and one without (of each executable),
    each started for the first page that wants it and kept for the browser tests that follow, whatever
    their module (each test has contexts of its own).

    Playwright's sync API keeps an event loop running in this thread while it lives, which an async
    test would trip over: ``pytest_runtest_teardown`` stops it before any test that is not a browser test.
    """

    def __init__(self) -> None:
        self.playwright = None
        self.browsers: dict[tuple[Path, bool], object] = {}

    def get(self, executable: Path, *, webgl: bool):  # type: ignore[no-untyped-def]
        if (executable, webgl) not in self.browsers:
            from playwright.sync_api import expect, sync_playwright

            try:
                if self.playwright is None:
                    # Generous waits: a shared 2-core CI machine can be slow; a condition that holds is met at once.
                    expect.set_options(timeout=20_000)
                    self.playwright = sync_playwright().start()
                browser = self.playwright.chromium.launch(executable_path=str(executable), headless=True,
                                                          args=BROWSER_ARGS[webgl])
                self.browsers[executable, webgl] = browser
                # The flags did what they say, or the 3D board's tests would not test it (nor the others
                # the top view).
                page = browser.new_page()
                try:
                    assert page.evaluate(HAS_WEBGL) is webgl, f"Chromium {BROWSER_ARGS[webgl]}: WebGL is not {webgl}"
                finally:
                    page.close()
            except BaseException:
                self.stop()
                raise
        return self.browsers[executable, webgl]

    def stop(self) -> None:
        browsers, playwright = list(self.browsers.values()), self.playwright
        self.browsers, self.playwright = {}, None
        try:
            for browser in browsers:
                browser.close()  # type: ignore[attr-defined]
        finally:
            if playwright is not None:
                playwright.stop()


_CHROMIUM = _Chromium()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After a browser test's own teardown (its contexts closed): stop Chromium and the server unless a
    browser test comes next in this process."""
    try:
        return (yield)
    finally:
        if nextitem is None or nextitem.get_closest_marker("browser") is None:
            try:
                _CHROMIUM.stop()
            finally:
                _SERVER.stop()


@pytest.fixture
def webgl(request: pytest.FixtureRequest) -> bool:
    """Whether this test's pages have WebGL (the 3D board): a test marked ``webgl``."""
    return request.node.get_closest_marker("webgl") is not None


@pytest.fixture
def browser(executable: Path, webgl: bool):  # type: ignore[no-untyped-def]
    return _CHROMIUM.get(executable, webgl=webgl)


@pytest.fixture
def new_page(executable: Path, webgl: bool, server_url: str) -> Iterator[Callable[..., object]]:  # type: ignore[no-untyped-def]
    """Opens pages, each in its own browser context (a separate device with its own cookies), with WebGL
    if the test is marked ``webgl`` or the page asks for it (``webgl=True``). Each device asks for reduced
    motion unless the page says otherwise (``reduced_motion="no-preference"``): the 3D board then draws a
    move once, not each frame of its bead's fall (a frame costs about 50 ms of SwiftShader's CPU)."""
    contexts = []

    def make(*, width: int = 960, height: int = 720, webgl: bool = webgl, **kwargs: object):  # type: ignore[no-untyped-def]
        browser = _CHROMIUM.get(executable, webgl=webgl)
        kwargs.setdefault("reduced_motion", "reduce")
        ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=server_url, **kwargs)
        ctx.set_default_timeout(30_000)
        contexts.append(ctx)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.js_errors = errors  # type: ignore[attr-defined]
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def seat(server_url: str) -> Iterator[Callable[[str, str], object]]:
    """Makes the other player of a room, on its socket without a page (``playkit.Seat``: ``seat(code, name)``);
    their sockets are closed after the test."""
    from tests.e2e.playkit import Seat

    made: list[Seat] = []

    def make(code: str, name: str) -> Seat:
        made.append(Seat(server_url, code, name))
        return made[-1]

    yield make
    for one in made:
        one.close()


@pytest.fixture(scope="session")
def axe_source() -> Path:
    """axe-core's script (tests/e2e/axekit.py): the pinned npm dev dependency, from node_modules."""
    axe = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
    if not axe.exists():
        reason = f"{axe} is missing (make deps, or npm ci in frontend/): skipping the accessibility check"
        if IN_CI:
            pytest.fail(f"CI must run the accessibility check, but {reason}")
        pytest.skip(reason)
    return axe


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
