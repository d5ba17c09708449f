// One websocket per page, reconnecting with exponential backoff. Room frames are applied only when their
// version is above the last applied one, so a reconnect re-syncs from the full snapshot it receives.

const MIN_DELAY = 500;
const MAX_DELAY = 10000;
const PING_EVERY = 15000;

export class RoomSocket {
  /**
   * @param {string} code room code
   * @param {{onRoom, onError, onNotice, onStatus, onGone, onChat, onChatHistory}} handlers
   */
  constructor(code, handlers) {
    this.code = code;
    this.h = handlers;
    this.ws = null;
    this.version = -Infinity;
    this.attempt = 0;
    this.timer = null;
    this.pinger = null;
    this.closedForGood = false;
    this.waiters = [];
  }

  get url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/rooms/${encodeURIComponent(this.code)}/`;
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.closedForGood) return;
    this.status(this.attempt === 0 ? "connecting" : "reconnecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.status("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_EVERY);
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      clearInterval(this.pinger);
      this.ws = null;
      // 4404 unknown room, 4410 room closed, 4403 banned player: reconnecting would not help.
      if (ev.code === 4404 || ev.code === 4410 || ev.code === 4403) {
        this.closedForGood = true;
        this.status(ev.code === 4404 ? "gone" : ev.code === 4410 ? "closed" : "banned");
        this.h.onGone?.(ev.code);
        return;
      }
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows and schedules the retry */
    };
  }

  scheduleReconnect() {
    if (this.closedForGood || this.timer) return;
    const base = Math.min(MAX_DELAY, MIN_DELAY * 2 ** this.attempt);
    const delay = base * (0.75 + Math.random() * 0.5);
    this.attempt += 1;
    this.status("reconnecting", delay);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Drops the current connection and connects again at once (e.g. after this device got a player). */
  reconnectNow() {
    const old = this.ws;
    this.ws = null;
    clearInterval(this.pinger);
    if (old) {
      old.onclose = null;
      old.close(1000);
    }
    this.attempt = 0;
    // A fresh connection must be able to re-sync even at the same version.
    this.version = -Infinity;
    this.connect();
    return this.nextRoom();
  }

  /** A promise for the next applied room frame. */
  nextRoom() {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (!frame || typeof frame !== "object") return;
    switch (frame.type) {
      case "room": {
        if (typeof frame.version === "number" && frame.version <= this.version) return;
        this.version = typeof frame.version === "number" ? frame.version : this.version;
        this.h.onRoom?.(frame);
        const waiters = this.waiters;
        this.waiters = [];
        waiters.forEach((w) => w(frame));
        break;
      }
      case "error":
        this.h.onError?.(frame);
        break;
      case "notice":
        this.h.onNotice?.(frame);
        break;
      case "chat":
        this.h.onChat?.(frame);
        break;
      case "chat_history":
        this.h.onChatHistory?.(frame);
        break;
      default:
        break;
    }
  }

  send(frame) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  status(state, delay) {
    this.h.onStatus?.(state, delay);
  }

  close() {
    this.closedForGood = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close(1000);
  }
}
