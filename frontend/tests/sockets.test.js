import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { sendBerserk } from "../static/frontend/arena/socket.js";
import { notificationFrames } from "../static/frontend/socket.js";

const STATIC = join(import.meta.dirname, "..", "static", "frontend");

/** @param {string} dir @returns {string[]} every .js file under dir */
function modules(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? modules(join(dir, entry.name)) : entry.name.endsWith(".js") ? [join(dir, entry.name)] : [],
  );
}

test("no module but socket.js opens a WebSocket: every socket is a ReconnectingSocket", () => {
  const all = modules(STATIC).map((path) => relative(STATIC, path));
  expect(all.length).toBeGreaterThan(20); // the modules are where this test looks
  const opening = all.filter((name) => /new\s+WebSocket\b/.test(readFileSync(join(STATIC, name), "utf8")));
  expect(opening).toEqual(["socket.js"]);
});

/** A WebSocket that connects nowhere: what the page sends is kept, the test plays the server. */
class FakeWebSocket {
  static OPEN = 1;
  /** @type {FakeWebSocket[]} */
  static made = [];

  /** @param {string} url */
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    /** @type {object[]} */
    this.sent = [];
    this.closed = false;
    /** @type {((ev: object) => void) | null} */
    this.onopen = null;
    /** @type {((ev: {data: string}) => void) | null} */
    this.onmessage = null;
    /** @type {((ev: object) => void) | null} */
    this.onclose = null;
    /** @type {(() => void) | null} */
    this.onerror = null;
    FakeWebSocket.made.push(this);
  }

  open() {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.({});
  }

  /** @param {object} frame */
  receive(frame) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  /** @param {string} text */
  send(text) {
    this.sent.push(JSON.parse(text));
  }

  close() {
    this.closed = true;
    this.readyState = 3;
  }
}

describe("sendBerserk", () => {
  const g = /** @type {any} */ (globalThis);
  beforeEach(() => {
    FakeWebSocket.made = [];
    vi.useFakeTimers();
    vi.stubGlobal("WebSocket", FakeWebSocket);
    vi.stubGlobal("location", { protocol: "https:", host: "example.test" });
    g.CustomEvent ??= class extends Event {
      /** @param {string} type @param {{detail?: unknown}} [init] */
      constructor(type, init) {
        super(type);
        this.detail = init?.detail;
      }
    };
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  test("sends the one berserk frame on the arena's socket once it opens, and closes at the answer", () => {
    const refused = vi.fn();
    sendBerserk(7, "g1", refused);
    const [ws] = FakeWebSocket.made;
    expect(ws.url).toBe("wss://example.test/ws/tournaments/7/");
    expect(ws.sent).toEqual([]);
    ws.open();
    expect(ws.sent).toEqual([{ type: "berserk", game: "g1" }]);
    ws.receive({ type: "tournament", version: 3 });
    expect(ws.closed).toBe(false);
    ws.receive({ type: "berserked", game: "g1" });
    expect(ws.closed).toBe(true);
    expect(refused).not.toHaveBeenCalled();
  });

  test("a refusal says the server's message and closes", () => {
    const refused = vi.fn();
    sendBerserk(7, "g1", refused);
    const [ws] = FakeWebSocket.made;
    ws.open();
    ws.receive({ type: "error", code: "no_berserk", message: "Too late to berserk." });
    expect(refused).toHaveBeenCalledWith("Too late to berserk.");
    expect(ws.closed).toBe(true);
  });

  test("closes unanswered after ten seconds, and leaves the player's notifications to the room socket", () => {
    const heard = vi.fn();
    notificationFrames.addEventListener("notification", heard);
    sendBerserk(7, "g1", vi.fn());
    const [ws] = FakeWebSocket.made;
    ws.open();
    ws.receive({ type: "notification", notification: { id: 1, kind: "paired" }, unread: 1 });
    expect(heard).not.toHaveBeenCalled();
    vi.advanceTimersByTime(9999);
    expect(ws.closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(ws.closed).toBe(true);
    notificationFrames.removeEventListener("notification", heard);
  });
});
