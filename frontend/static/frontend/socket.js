// A websocket that reconnects with exponential backoff and jitter, pings on a timer (if given one), and
// parses each frame as a JSON object. Every socket of the pages is one: the room's (room/socket.js), the
// lobby's (home/lobbysocket.js), the arena's (arena/socket.js, also the room page's Berserk) and the
// player socket (notify/main.js); no other module opens a WebSocket (tests/sockets.test.js). A subclass
// says what a frame means (onFrame), what an open and a close mean (onOpened, onClosed), and may stop
// reconnecting for good (a close code after which retrying cannot help).

const MIN_DELAY = 500;

// Every `notification` frame of any socket of the page (docs/protocol.md, "Notifications"), as a
// "notification" CustomEvent whose detail is the frame: the bell (notify/main.js) listens, whichever socket the
// page has. A subclass's onFrame does not see them. On a page without a socket of its own, a "live" Event
// says that the player socket (notify/main.js) is in the player's group again: what came before it did not.
export const notificationFrames = new EventTarget();
const MAX_DELAY = 10000;

export class ReconnectingSocket {
  /**
   * @param {string} path e.g. "/ws/lobby/"
   * @param {number | null} pingEvery milliseconds between pings (null: none)
   */
  constructor(path, pingEvery) {
    this.path = path;
    this.pingEvery = pingEvery;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pinger = undefined;
    this.closedForGood = false;
    // Whether its `notification` frames go to `notificationFrames` (false: a second socket of the page
    // whose player's frames the page's own socket already brings, e.g. the room page's Berserk).
    this.forwardsNotifications = true;
  }

  get url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}${this.path}`;
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closedForGood) return;
    this.onConnecting(this.attempt);
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
      this.setPing(this.pingEvery);
      this.onOpened();
    };
    ws.onmessage = (ev) => {
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (!frame || typeof frame !== "object") return;
      if (frame.type !== "notification") this.onFrame(frame);
      else if (this.forwardsNotifications)
        notificationFrames.dispatchEvent(new CustomEvent("notification", { detail: frame }));
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      clearInterval(this.pinger);
      this.ws = null;
      if (this.onClosed(ev) === "stop") {
        this.closedForGood = true;
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
    this.onRetrying(delay);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Drops the current connection and connects again at once (the server reads the player on open). */
  reconnectNow() {
    const old = this.ws;
    this.ws = null;
    clearInterval(this.pinger);
    if (old) {
      old.onclose = null;
      old.close(1000);
    }
    this.attempt = 0;
    this.connect();
  }

  /** @param {number | null} every */
  setPing(every) {
    clearInterval(this.pinger);
    this.pinger = every ? setInterval(() => this.send({ type: "ping" }), every) : undefined;
  }

  /**
   * Sends a frame as JSON; false when the socket is not open (nothing is sent).
   * @param {object} frame
   * @returns {boolean}
   */
  send(frame) {
    if (!this.isOpen || !this.ws) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  close() {
    this.closedForGood = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close(1000);
  }

  // --- for subclasses -------------------------------------------------------------------------------
  /** @param {number} _attempt 0 for the first connection */
  onConnecting(_attempt) {}
  onOpened() {}
  /** @param {number} _delay milliseconds until the next attempt */
  onRetrying(_delay) {}
  /**
   * @param {CloseEvent} _event
   * @returns {"stop" | undefined} "stop": never reconnect
   */
  onClosed(_event) {
    return undefined;
  }
  /** @param {any} _frame a parsed JSON object (the subclass reads what it knows) */
  onFrame(_frame) {}
}
