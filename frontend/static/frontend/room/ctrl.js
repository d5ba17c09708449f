// The room page's controller: the state, the board, the top view and the socket in one place, and the
// actions a person takes (pick a peg, choose it, take a seat, resign, change the rules). Each drop
// carries the ply it was made on. The view draws what the controller holds (view.js).

import { rememberedName, rememberName, saveName } from "../api.js";
import { $ } from "../dom.js";
import { fullPegMessage } from "../game.js";
import { gettext } from "../i18n.js";
import { prefs } from "../prefs.js";
import { guestName } from "../text.js";
import { canSit, game, isFull, isHost, isMyTurn, isPlaying, isWatching, mySeat, newState } from "./state.js";
import { render, renderControls, renderTopView, rulesForm } from "./view.js";

/** @typedef {import("../board/board3d.js").Board3D} Board3D */
/** @typedef {import("../board/topview.js").TopView} TopView */
/** @typedef {import("./socket.js").RoomSocket} RoomSocket */
/** @typedef {"error" | "info"} SayKind */

export class RoomCtrl {
  /**
   * @param {{code: string, autostart: boolean, topview: TopView, board: Board3D | null, sock: RoomSocket}} parts
   */
  constructor({ code, autostart, topview, board, sock }) {
    this.code = code;
    this.S = newState(autostart);
    this.topview = topview;
    this.board = board;
    this.sock = sock;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.msgTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.crossTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.resignTimer = undefined;
  }

  render() {
    render(this);
  }

  /**
   * A message near the board, for a few seconds.
   * @param {string} text
   * @param {SayKind} [kind]
   */
  say(text, kind = "error") {
    const el = $("#board-msg");
    el.textContent = text;
    el.dataset.kind = kind;
    el.hidden = false;
    clearTimeout(this.msgTimer);
    this.msgTimer = setTimeout(
      () => {
        el.hidden = true;
      },
      kind === "error" ? 5000 : 3500,
    );
  }

  /**
   * A tap on a peg (on the board or the top view): the first selects it, the second chooses it.
   * @param {string} peg
   */
  pick(peg) {
    const S = this.S;
    if (!S.room) return;
    if (isWatching(S)) {
      this.say(
        canSit(S) ? gettext("You are watching: take a seat to play.") : gettext("You are watching this game."),
        "info",
      );
      return;
    }
    if (isFull(S, peg)) {
      S.selected = null;
      this.showCross(peg);
      this.say(fullPegMessage(peg));
      this.render();
      return;
    }
    if (prefs().premove && isPlaying(S) && !isMyTurn(S)) {
      // The opponent's turn: this peg goes the moment their move arrives (a second tap cancels it).
      S.premove = S.premove === peg ? null : peg;
      S.selected = null;
      this.render();
      return;
    }
    if (S.selected === peg || (!prefs().confirm_move && isMyTurn(S))) {
      this.choose(peg);
      return;
    }
    S.selected = peg;
    if (S.cross) this.hideCross();
    this.render();
  }

  /**
   * Drops a bead on `peg`, when this viewer may: once per ply (a drop already on its way is not sent again).
   * @param {string | null} peg
   */
  choose(peg) {
    const S = this.S;
    if (!S.room || !peg) return;
    const g = game(S);
    if (isFull(S, peg)) {
      this.showCross(peg);
      this.say(fullPegMessage(peg));
      this.render();
      return;
    }
    if (g?.status !== "playing") {
      this.say(g ? gettext("This game is over.") : gettext("The game has not started yet."), "info");
      return;
    }
    if (mySeat(S) == null) {
      this.say(gettext("You are watching this game."), "info");
      return;
    }
    if (!isMyTurn(S)) {
      S.selected = peg;
      this.render();
      this.say(gettext("It is not your turn yet."), "info");
      return;
    }
    if (S.pendingPly === g.ply) return; // this ply's drop is already on its way
    if (!this.sock.send({ type: "drop", peg, ply: g.ply })) {
      this.say(gettext("Not connected: reconnecting…"));
      return;
    }
    S.pendingPly = g.ply;
    S.pendingPeg = peg;
    S.selected = null;
    this.render();
  }

  /** The premove, the moment it is this viewer's turn: sent if still legal, else dropped with a note. */
  playPremove() {
    const S = this.S;
    const peg = S.premove;
    if (!peg || !isMyTurn(S)) return;
    S.premove = null;
    if (isFull(S, peg)) {
      this.say(gettext("Premove dropped: peg %(peg)s is full now.", { peg }), "info");
      this.render();
      return;
    }
    this.choose(peg);
  }

  /** Forgets the premove (Escape, a tap away from the board). */
  cancelPremove() {
    if (!this.S.premove) return;
    this.S.premove = null;
    this.render();
  }

  /** @param {string} peg a full peg: a cross over it for a few seconds */
  showCross(peg) {
    this.S.cross = peg;
    this.board?.showCross(peg);
    clearTimeout(this.crossTimer);
    this.crossTimer = setTimeout(() => {
      this.hideCross();
      renderTopView(this);
    }, 4000);
  }

  hideCross() {
    this.S.cross = null;
    this.board?.hideCross();
  }

  /** Takes a seat, first making this device a player (with the typed or remembered name) if it is none. */
  async sitDown() {
    const btn = $("#sit", HTMLButtonElement);
    btn.disabled = true;
    try {
      const typed = $("#sit-name", HTMLInputElement).value.trim();
      const you = this.S.room?.you;
      if (!you?.player) {
        const name = typed || rememberedName() || guestName();
        await saveName(name);
        rememberName(name);
        // The socket was opened without a player: open it again so the server knows who we are.
        await this.sock.reconnectNow();
      } else if (typed) {
        await saveName(typed);
        rememberName(typed);
      }
      this.sock.send({ type: "sit" });
    } catch (err) {
      this.say((err instanceof Error && err.message) || gettext("Could not take a seat."));
    } finally {
      btn.disabled = false;
    }
  }

  /** The first tap arms the button for a few seconds, the second resigns. */
  resign() {
    const btn = $("#resign");
    if (!this.S.resignArmed) {
      this.S.resignArmed = true;
      btn.textContent = gettext("Tap again to resign");
      btn.classList.add("armed");
      clearTimeout(this.resignTimer);
      this.resignTimer = setTimeout(() => {
        this.S.resignArmed = false;
        renderControls(this);
      }, 4000);
      return;
    }
    this.S.resignArmed = false;
    clearTimeout(this.resignTimer);
    this.sock.send({ type: "resign" });
    renderControls(this);
  }

  /** Sends the house rules as the form now shows them (the host, between games). */
  sendRules() {
    const f = rulesForm();
    const ts = f.turn_seconds.value;
    this.sock.send({
      type: "rules",
      turn_seconds: ts ? Number(ts) : null,
      days_per_move: f.days_per_move.value ? Number(f.days_per_move.value) : null,
      alternate_first: f.alternate_first.checked,
      ranked: f.ranked.checked,
      cpu_level: Number(f.cpu_level.value),
      spectator_chat: f.spectator_chat.checked,
      open: f.open.checked,
    });
  }

  /** Opened with `?start=1`: the host starts the first game at once (once; the parameter is dropped). */
  maybeAutostart() {
    const S = this.S;
    if (!S.autostart || !S.room) return;
    S.autostart = false;
    const params = new URLSearchParams(location.search);
    params.delete("start");
    history.replaceState(null, "", location.pathname + (params.size ? `?${params}` : ""));
    if (isHost(S) && !game(S)) this.sock.send({ type: "start" });
  }
}
