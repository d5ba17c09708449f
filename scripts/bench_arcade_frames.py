"""Benchmark the 3D 2048 page's frames: 27 tiles on the 3x3x3 cube while the view turns, in Chromium.

Run: ``.venv/bin/python scripts/bench_arcade_frames.py [--seconds S]`` (``make bench-arcade-frames``).
A server (embedded) serves /arcade/3d to Debian's Chromium headless shell with WebGL in software
(SwiftShader, as the browser tests have it) at 1280x800. The page takes up a local run whose board holds 27
tiles (27 different values, 27 labels), then for S seconds turns the view by 2 degrees each frame (the
back-view window drawn too): the frames' intervals (what a person sees) and the CPU the page's draw takes in
JavaScript. Then the same with a key pressed every 150 ms (the board refilled when it thins): how long each
key's handler takes, and whether the board was shown before the handler returned (input never waits for a
frame).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright

from harness.server import LiveServer, migrate, server_env

HEADLESS_SHELL = os.environ.get("CHROMIUM_HEADLESS_SHELL_PATH", "/usr/bin/chromium-headless-shell")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
        "--webgl-antialiasing-mode=none", "--webgl-msaa-sample-count=0"]
# A local run on a full board: 27 tiles, values 2 to 2^27 (each its own label texture).
TAKE_UP = """async () => {
  const { runAt } = await import("/static/frontend/arcade/run.js");
  const { modeById } = await import("/static/frontend/arcade/rules.js");
  const mode = modeById("cube3");
  window.__full = () => Array.from({ length: 27 }, (_, i) => 2 ** (1 + ((i * 7) % 27)));
  window.__takeUp = (board) => window.__arcade.sync.goLocal(runAt(mode, board));
  window.__takeUp(window.__full());
}"""
# Turns the view 2 degrees a frame for `seconds`; with `keys`, presses one every 150 ms (a board of pairs,
# refilled when it thins, so that most keys move): frame intervals, draw times, key handler times.
TURN = """async ([seconds, keys]) => {
  const view = window.__arcade.view;
  const draw = view.render.bind(view);
  const drawMs = [];
  view.render = () => { const t = performance.now(); draw(); drawMs.push(performance.now() - t); };
  const pairs = () => Array.from({ length: 27 }, (_, i) => 2 ** (1 + (Math.floor(i / 2) % 6)));
  if (keys) window.__takeUp(pairs());
  const frames = [];
  const handled = [];
  let shownInHandler = 0;
  let moved = 0;
  const show = view.show.bind(view);
  let shows = 0;
  view.show = (board, change) => { shows += 1; show(board, change); };
  const order = ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "e", "q"];
  let pressed = 0;
  const timer = keys ? setInterval(() => {
    const run = window.__arcade.sync.run;
    if (run.board.filter((v) => v).length < 14 || run.status !== "playing") window.__takeUp(pairs());
    const before = shows;
    const board = JSON.stringify(window.__arcade.sync.run.board);
    const t = performance.now();
    document.dispatchEvent(new KeyboardEvent("keydown", { key: order[pressed++ % order.length], bubbles: true }));
    handled.push(performance.now() - t);
    if (JSON.stringify(window.__arcade.sync.run.board) !== board) moved += 1;
    if (shows > before) shownInHandler += 1;
  }, 150) : null;
  const t0 = performance.now();
  await new Promise((done) => {
    const step = (now) => {
      frames.push(now);
      view.turnTo(view.azimuth() + Math.PI / 90);
      if (now - t0 < seconds * 1000) requestAnimationFrame(step); else done();
    };
    requestAnimationFrame(step);
  });
  if (timer) clearInterval(timer);
  view.render = draw;
  view.show = show;
  const gaps = frames.slice(1).map((t, i) => t - frames[i]);
  const tiles = window.__arcade.sync.run.board.filter((v) => v).length;
  return { gaps, drawMs, handled, shownInHandler, moved, tiles };
}"""

def summary(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(ordered):.1f} ms, p95 {p95:.1f} ms, max {ordered[-1]:.1f} ms (n={len(ordered)})"


def bench(url: str, seconds: float) -> dict[str, Any]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=HEADLESS_SHELL, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(url + "/arcade/3d?mode=cube3")
            page.wait_for_function("() => window.__arcade && window.__arcade.view.frames > 0")
            page.evaluate(TAKE_UP)
            page.wait_for_timeout(500)
            turning = page.evaluate(TURN, [seconds, False])
            typing = page.evaluate(TURN, [seconds, True])
            software = page.evaluate("() => window.__arcade.view.software")
        finally:
            browser.close()
    return {"turning": turning, "typing": typing, "software": software}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-frames-") as tmp:
        env = server_env(SQLITE_PATH=str(Path(tmp) / "db.sqlite3"), LOG_LEVEL="WARNING")
        migrate(env)
        server = LiveServer(env, log_dir=Path(tmp)).start()
        try:
            found = bench(server.http, args.seconds)
        finally:
            server.stop()
    turning, typing = found["turning"], found["typing"]
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{platform.node()} ({os.cpu_count()} cores), load average {load}; software WebGL: {found['software']}")
    print(f"27 tiles, turning {args.seconds:g} s: frame interval {summary(turning['gaps'])}; "
          f"fps {1000 / statistics.median(turning['gaps']):.1f}; draw (JS) {summary(turning['drawMs'])}")
    print(f"turning with a key every 150 ms ({typing['tiles']} tiles at the end): frame interval "
          f"{summary(typing['gaps'])}; key handler {summary(typing['handled'])}; "
          f"{typing['moved']} of {len(typing['handled'])} keys moved (the others moved nothing), "
          f"the board shown inside the handler for {typing['shownInHandler']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
