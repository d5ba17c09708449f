// Blind mode on the room page (docs/accessibility.md): the 3D board gives way to the board in words, a
// line to type a move or a command in, the list of pegs that can be played, and a live region that
// announces every move of either side, the threats when the hint is on, the errors and the answers to
// commands. It watches the controller (each render and each message) and acts through it like a tap.
// Turned on by the `blind` preference; `?blind=1` (or `0`) sets it from the address.

import { $ } from "../dom.js";
import { colourWord } from "../game.js";
import { gettext, ngettext } from "../i18n.js";
import { prefs, setPrefs } from "../prefs.js";
import { escapeHtml } from "../text.js";
import {
  boardText,
  clockSpoken,
  helpText,
  lastMovesText,
  legalPegs,
  legalText,
  levelsText,
  levelText,
  newMovesText,
  parseCommand,
  pegText,
  threatsText,
  unknownText,
} from "./blindtext.js";
import { game, isMyTurn, isPlaying, moverColour, mySeat, position, seatName, seatOf } from "./state.js";

/** @typedef {import("./ctrl.js").RoomCtrl} RoomCtrl */
/** @typedef {import("./blindtext.js").Command} Command */

const KEEP = 30; // announcements kept in the live region (the oldest go)

/** Whether this page is in blind mode: `?blind=1`/`?blind=0` sets the preference (kept), else the preference. */
export function blindWanted() {
  const asked = new URLSearchParams(location.search).get("blind");
  if (asked === "1" || asked === "0") {
    const on = asked === "1";
    if (prefs().blind !== on) setPrefs({ blind: on });
    return on;
  }
  return prefs().blind;
}

/** Blind mode's part of the page, in the page's language. */
function markup() {
  /** @param {string} text */
  const t = (text) => escapeHtml(text);
  return `
  <h2 id="blind-h">${t(gettext("The board in words"))}</h2>
  <form id="blind-form" class="blind-form" autocomplete="off">
    <label for="blind-input">${t(gettext("Your move or a command"))}</label>
    <input id="blind-input" aria-describedby="blind-help" enterkeyhint="send" maxlength="40">
    <button type="submit" class="btn primary small">${t(gettext("Enter"))}</button>
  </form>
  <p id="blind-help" class="muted small"></p>
  <h3 id="blind-live-h">${t(gettext("Announcements"))}</h3>
  <div id="blind-live" class="blind-live" role="log" aria-live="polite" aria-labelledby="blind-live-h"></div>
  <h3 id="blind-legal-h">${t(gettext("Pegs you can play"))}</h3>
  <ul id="blind-legal" class="blind-legal" aria-labelledby="blind-legal-h"></ul>
  <h3 id="blind-board-h">${t(gettext("Pegs"))}</h3>
  <ul id="blind-board" class="blind-board" aria-labelledby="blind-board-h"></ul>`;
}

/** Blind mode's part of the room page, bound to its controller. */
export class BlindView {
  /** @param {RoomCtrl} ctrl */
  constructor(ctrl) {
    this.ctrl = ctrl;
    /** @type {string | null} the game announced */
    this.gameId = null;
    /** how many of its moves were announced */
    this.seen = 0;
    this.endSaid = false;
    this.root = document.createElement("section");
    this.root.id = "blind";
    this.root.className = "blind card";
    this.root.setAttribute("aria-labelledby", "blind-h");
    this.root.innerHTML = markup();
    $("#board-wrap").before(this.root);
    document.body.classList.add("blind-mode");
    $("#blind-help").textContent = helpText();
    $("#blind-input").focus(); // the page's one control in this mode: typing starts at once
    $("#blind-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const input = $("#blind-input", HTMLInputElement);
      this.run(parseCommand(input.value));
      input.value = "";
    });
    $("#blind-legal").addEventListener("click", (ev) => {
      const btn = ev.target instanceof Element ? ev.target.closest("button[data-peg]") : null;
      if (btn instanceof HTMLElement && btn.dataset.peg) this.ctrl.choose(btn.dataset.peg);
    });
  }

  /** @param {string} text said once by a screen reader (and kept in the log) */
  announce(text) {
    if (!text) return;
    const log = $("#blind-live");
    const p = document.createElement("p");
    p.textContent = text;
    log.append(p);
    while (log.childElementCount > KEEP) log.firstElementChild?.remove();
  }

  /** @param {Command} cmd */
  run(cmd) {
    const S = this.ctrl.S;
    const { stacks } = position(S);
    const g = game(S);
    if (cmd.kind === "move") {
      this.ctrl.choose(cmd.peg);
      return;
    }
    /** @type {Record<string, () => string>} */
    const answers = {
      board: () => boardText(stacks),
      peg: () => (cmd.kind === "peg" ? pegText(cmd.peg, stacks[cmd.peg] || []) : ""),
      levels: () => levelsText(stacks),
      level: () => (cmd.kind === "level" ? levelText(stacks, cmd.level) : ""),
      legal: () => legalText(stacks),
      moves: () => lastMovesText(g?.moves || [], cmd.kind === "moves" ? cmd.count : 6),
      clock: () => clockSpoken(g, moverColour(S), Date.now()),
      turn: () => this.turnText(),
      chat: () => chatText(),
      help: () => helpText(),
      unknown: () => unknownText(cmd.kind === "unknown" ? cmd.text : ""),
    };
    this.announce(answers[cmd.kind]());
  }

  turnText() {
    const S = this.ctrl.S;
    const g = game(S);
    if (!g) return gettext("The game has not started yet.");
    if (!isPlaying(S)) return $("#result").textContent?.trim() || gettext("The game is over.");
    if (isMyTurn(S)) return gettext("Your turn.");
    const who = seatName(seatOf(S, g.to_move_seat));
    return gettext("%(who)s's turn (%(colour)s).", { who, colour: colourWord(moverColour(S)) });
  }

  /** After each render of the page: the new moves said, the text views brought up to date. */
  update() {
    const S = this.ctrl.S;
    const g = game(S);
    const moves = g?.moves || [];
    if (g && g.id !== this.gameId) {
      const first = this.gameId == null;
      this.gameId = g.id;
      this.seen = moves.length;
      this.endSaid = g.status !== "playing";
      const parts = first ? [] : [gettext("A new game.")];
      if (mySeat(S) != null)
        parts.push(g.red_seat === mySeat(S) ? gettext("You play red.") : gettext("You play yellow."));
      if (moves.length) parts.push(ngettext("%(n)s move played.", "%(n)s moves played.", moves.length));
      this.announce([...parts, this.turnText()].join(" "));
    } else if (g && moves.length !== this.seen) {
      const said = moves.length > this.seen ? newMovesText(moves, this.seen) : [gettext("Moves were taken back.")];
      this.seen = moves.length;
      for (const text of said) this.announce(text);
      const hint = $("#show-threats", HTMLInputElement).checked && isPlaying(S);
      if (hint) for (const text of threatsText(g.threats)) this.announce(text);
      if (isMyTurn(S)) this.announce(gettext("Your turn."));
    }
    if (g && g.status !== "playing" && !this.endSaid) {
      this.endSaid = true;
      this.announce($("#result").textContent?.trim() || gettext("The game is over."));
    }
    this.drawLists();
  }

  drawLists() {
    const { stacks } = position(this.ctrl.S);
    const board = $("#blind-board");
    const lines = Object.entries(stacks).map(([peg, stack]) => pegText(peg, stack));
    if (board.dataset.text !== lines.join("|")) {
      board.dataset.text = lines.join("|");
      board.replaceChildren(...lines.map(li));
    }
    const legal = $("#blind-legal");
    const key = legalPegs(stacks)
      .map((l) => l.peg + l.level)
      .join();
    if (legal.dataset.key === key) return;
    legal.dataset.key = key;
    const active = document.activeElement;
    const focused = active instanceof HTMLElement && legal.contains(active) ? active.dataset.peg : undefined;
    legal.replaceChildren(
      ...legalPegs(stacks).map((l) => {
        const item = document.createElement("li");
        const btn = document.createElement("button");
        btn.type = "button";
        btn.className = "btn ghost small";
        btn.dataset.peg = l.peg;
        btn.textContent = gettext("Play %(peg)s, level %(level)s", { peg: l.peg, level: l.level });
        item.append(btn);
        return item;
      }),
    );
    // A peg that filled up under the focus hands it to the typing line, not to the page's top.
    if (!focused) return;
    const again = legal.querySelector(`button[data-peg="${focused}"]`);
    (again instanceof HTMLElement ? again : $("#blind-input")).focus();
  }
}

/** @param {string} text */
function li(text) {
  const item = document.createElement("li");
  item.textContent = text;
  return item;
}

/** The last three chat messages, as the chat shows them. */
function chatText() {
  const msgs = [...document.querySelectorAll("#chat .chat-msg")].slice(-3).map((m) => m.textContent?.trim());
  return msgs.length ? gettext("Chat: %(messages)s", { messages: msgs.join(" · ") }) : gettext("No chat message.");
}

/**
 * Puts blind mode on the room page: it hears every render and every message of the controller.
 * @param {RoomCtrl} ctrl
 */
export function mountBlind(ctrl) {
  const view = new BlindView(ctrl);
  const render = ctrl.render.bind(ctrl);
  const say = ctrl.say.bind(ctrl);
  ctrl.render = () => {
    render();
    view.update();
  };
  /** @param {string} text @param {import("./ctrl.js").SayKind} [kind] */
  ctrl.say = (text, kind) => {
    say(text, kind);
    view.announce(text);
  };
  return view;
}
