// The lobby websocket (/ws/lobby/): quick pairing and the live lists. Reconnects with exponential
// backoff; the server sends both lists whole on every (re)connect, so nothing needs re-syncing. A seek
// lives as long as its socket: after a reconnect the page decides whether to seek again.

const MIN_DELAY = 500;
const MAX_DELAY = 10000;
// While seeking the page must speak often: a silent page's seek is dropped from the pool.
const PING_SEEKING = 5000;
const PING_IDLE = 15000;

export class LobbySocket {
  /**
   * @param {{onSeeking, onPaired, onCancelled, onOpenRooms, onLiveGames, onError, onOpen, onClose}} handlers
   */
  constructor(handlers) {
    this.h = handlers;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.pinger = null;
    this.seeking = false;
    this.openWaiters = [];
  }

  get url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/lobby/`;
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
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
      this.setPing();
      const waiters = this.openWaiters;
      this.openWaiters = [];
      waiters.forEach((w) => w());
      this.h.onOpen?.();
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      clearInterval(this.pinger);
      this.ws = null;
      const wasSeeking = this.seeking;
      this.seeking = false;
      this.h.onClose?.(wasSeeking);
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      /* onclose follows and schedules the retry */
    };
  }

  scheduleReconnect() {
    if (this.timer) return;
    const base = Math.min(MAX_DELAY, MIN_DELAY * 2 ** this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), base * (0.75 + Math.random() * 0.5));
  }

  /** A promise for the socket being open (at once if it is). */
  whenOpen() {
    if (this.isOpen) return Promise.resolve();
    return new Promise((resolve) => this.openWaiters.push(resolve));
  }

  /** Connects again at once: the server reads who the player is when the socket opens. */
  reconnectNow() {
    const old = this.ws;
    this.ws = null;
    clearInterval(this.pinger);
    this.seeking = false;
    if (old) {
      old.onclose = null;
      old.close(1000);
    }
    this.attempt = 0;
    this.connect();
    return this.whenOpen();
  }

  setPing() {
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.send({ type: "ping" }), this.seeking ? PING_SEEKING : PING_IDLE);
  }

  seek(turnSeconds, ranked) {
    const sent = this.send({ type: "seek", turn_seconds: turnSeconds, ranked });
    if (sent) {
      this.seeking = true;
      this.setPing();
    }
    return sent;
  }

  cancel() {
    return this.send({ type: "cancel" });
  }

  stopped() {
    this.seeking = false;
    if (this.isOpen) this.setPing();
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
      case "seeking":
        this.h.onSeeking?.(frame);
        break;
      case "paired":
        this.stopped();
        this.h.onPaired?.(frame);
        break;
      case "cancelled":
        this.stopped();
        this.h.onCancelled?.(frame);
        break;
      case "open_rooms":
        this.h.onOpenRooms?.(Array.isArray(frame.rooms) ? frame.rooms : []);
        break;
      case "live_games":
        this.h.onLiveGames?.(Array.isArray(frame.games) ? frame.games : []);
        break;
      case "error":
        if (frame.code === "no_player") this.stopped();
        this.h.onError?.(frame);
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
}
