// The room's two chats: the players' and the spectators'. The server decides what this connection may
// read and sends only that; this module keeps every message once (by id), renders them as text only,
// writes in the chat this person may write in, and hides the messages of people muted on this device.

import { errorText, rememberedName, rememberName, saveName } from "../api.js";
import { tellDialog } from "../dialog.js";
import { $ } from "../dom.js";
import { formatDate, gettext, ngettext } from "../i18n.js";
import { reportPlayer } from "../report.js";
import { guestName } from "../text.js";

/** @typedef {import("../api.js").Json} Json */
/** @typedef {"players" | "spectators"} ChatName */
/**
 * A chat message as the server sends it (docs/protocol.md, "Chat").
 * @typedef {{id: number, chat: ChatName, player?: {id?: string, name?: string} | null, text?: string,
 *   phrase?: string | null, at?: string}} ChatMessage
 */

/**
 * Quick phrases travel as keys; each reader's page says them in its own words.
 * @type {Record<string, string>}
 */
export const PHRASES = {
  good_luck: gettext("Good luck"),
  well_played: gettext("Well played"),
  good_game: gettext("Good game"),
  one_more: gettext("One more?"),
  thanks: gettext("Thanks"),
};
export const MAX_CHARS = 200;
/** @type {ChatName[]} */
const CHATS = ["players", "spectators"];
// Error codes that answer a `say` (shown in the chat, not over the board) while one is on its way.
const SAY_ERRORS = new Set(["too_long", "empty", "rate_limited", "not_allowed", "no_player", "bad_frame"]);
const SAY_ANSWER_MS = 10000;
const MUTED_KEY = "fiar3d.muted";

/** @returns {Record<string, string>} player id -> name */
function loadMuted() {
  try {
    const stored = JSON.parse(localStorage.getItem(MUTED_KEY) || "{}");
    return stored && typeof stored === "object" && !Array.isArray(stored) ? stored : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, string>} muted */
function saveMuted(muted) {
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify(muted));
  } catch {
    /* private mode: the mute lasts as long as the page */
  }
}

/** @param {string | undefined} at */
function clock(at) {
  return formatDate(at, { hour: "2-digit", minute: "2-digit" });
}

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string | null} [className]
 * @param {string | null} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text; // text only: never parsed as HTML
  return node;
}

export class RoomChat {
  /**
   * @param {HTMLElement} root the chat card (#chat)
   * @param {{send: (frame: object) => boolean, reconnect: () => Promise<unknown>}} io
   */
  constructor(root, io) {
    this.root = root;
    this.io = io;
    /** @type {Map<number, ChatMessage>} one entry per message, however often it arrives */
    this.messages = new Map();
    this.muted = loadMuted();
    /** @type {import("./types.js").Room | null} */
    this.room = null;
    this.sentAt = 0;
    this.sentText = "";
    this.q("#chat-form").addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.sendText();
    });
    for (const [key, words] of Object.entries(PHRASES)) {
      const btn = el("button", "btn ghost small", words);
      btn.type = "button";
      btn.dataset.phrase = key;
      btn.addEventListener("click", () => this.say({ phrase: key }));
      this.q(".phrases").append(btn);
    }
    this.q("#chat-join").addEventListener("click", () => this.join());
    root.addEventListener("click", (ev) => {
      if (!(ev.target instanceof Element)) return;
      const mute = ev.target.closest("[data-mute]");
      if (mute instanceof HTMLElement) this.mute(mute.dataset.mute, mute.dataset.name);
      const unmute = ev.target.closest("[data-unmute]");
      if (unmute instanceof HTMLElement && unmute.dataset.unmute) this.unmute(unmute.dataset.unmute);
      const report = ev.target.closest("[data-report]");
      if (report instanceof HTMLElement && report.dataset.report) {
        const { report: id, name, message } = report.dataset;
        reportPlayer(id, name || guestName(), { message: Number(message) }).then((said) => {
          if (said) tellDialog(gettext("Report"), said);
        });
      }
    });
  }

  /**
   * An element of the chat card.
   * @template {HTMLElement} [T=HTMLElement]
   * @param {string} sel
   * @param {{new (): T, prototype: T}} [kind]
   * @returns {T}
   */
  q(sel, kind) {
    return $(sel, kind, this.root);
  }

  // ---- what this person may do -----------------------------------------------------------------

  me() {
    return this.room?.you ? this.room.you.player : null;
  }

  seated() {
    return !!(this.room && this.room.you && this.room.you.seat != null);
  }

  playing() {
    return !!(this.room?.game && this.room.game.status === "playing");
  }

  spectatorChatOn() {
    return !(this.room?.rules && this.room.rules.spectator_chat === false);
  }

  /**
   * The chat this person writes in: "players" when seated, else "spectators" (null while it is off).
   * @returns {ChatName | null}
   */
  myChat() {
    if (this.seated()) return "players";
    return this.spectatorChatOn() ? "spectators" : null;
  }

  /** Why the spectators' chat is not shown here now, or null when it is. */
  spectatorsHiddenBecause() {
    if (!this.spectatorChatOn()) return gettext("The host has turned the spectators' chat off.");
    if (this.seated() && this.playing()) return gettext("Hidden while you play: you will see it after the game.");
    return null;
  }

  // ---- frames from the server ------------------------------------------------------------------

  /** @param {import("./types.js").Room} room */
  setRoom(room) {
    this.room = room;
    this.render();
  }

  /** @param {Json} frame a chat frame */
  add(frame) {
    if (!frame || typeof frame.id !== "number" || !CHATS.includes(frame.chat)) return;
    this.messages.set(frame.id, frame);
    if (frame.player && frame.player.id === this.me()) this.sentAt = 0; // our say arrived
    this.render();
  }

  /** @param {Json} frame a chat history frame */
  history(frame) {
    for (const message of Array.isArray(frame.messages) ? frame.messages : []) {
      if (message && typeof message.id === "number" && CHATS.includes(message.chat)) {
        this.messages.set(message.id, message);
      }
    }
    this.render();
  }

  /**
   * Shows an error frame in the chat when it answers a say on its way; true when it did.
   * @param {{code?: string, message?: string}} frame
   */
  claimError(frame) {
    if (!frame.code || !SAY_ERRORS.has(frame.code) || !this.sentAt || Date.now() - this.sentAt > SAY_ANSWER_MS)
      return false;
    this.sentAt = 0;
    const input = this.q("#chat-text", HTMLInputElement);
    if (this.sentText && !input.value) input.value = this.sentText; // give the words back to fix them
    this.showError(frame.message || frame.code.replace(/_/g, " "));
    return true;
  }

  // ---- writing -----------------------------------------------------------------------------------

  sendText() {
    const input = this.q("#chat-text", HTMLInputElement);
    const text = input.value.trim();
    if (!text) return;
    if (this.say({ text })) {
      this.sentText = input.value;
      input.value = "";
    }
  }

  /** @param {{text: string} | {phrase: string}} content */
  say(content) {
    const chat = this.myChat();
    if (!chat) return false;
    if (!this.io.send({ type: "say", chat, ...content })) {
      this.showError(gettext("Not connected: reconnecting…"));
      return false;
    }
    this.sentAt = Date.now();
    this.sentText = "text" in content ? content.text : "";
    this.showError("");
    return true;
  }

  async join() {
    const name = this.q("#chat-name-input", HTMLInputElement).value.trim() || rememberedName() || guestName();
    const btn = this.q("#chat-join", HTMLButtonElement);
    btn.disabled = true;
    try {
      await saveName(name);
      rememberName(name);
      await this.io.reconnect(); // the socket was opened without a player: open it again as one
    } catch (err) {
      this.showError(errorText(err) || gettext("Could not save your name."));
    } finally {
      btn.disabled = false;
    }
  }

  /** @param {string} text */
  showError(text) {
    this.q("#chat-error").textContent = text;
  }

  // ---- muting (this device only) -----------------------------------------------------------------

  /** @param {string | undefined} id @param {string | undefined} name */
  mute(id, name) {
    if (!id || id === this.me()) return;
    this.muted[id] = name || gettext("Someone");
    saveMuted(this.muted);
    this.render();
  }

  /** @param {string} id */
  unmute(id) {
    delete this.muted[id];
    saveMuted(this.muted);
    this.render();
  }

  // ---- rendering ---------------------------------------------------------------------------------

  render() {
    if (!this.room) return;
    const hiddenBecause = this.spectatorsHiddenBecause();
    /** @type {Record<string, number>} */
    const hidden = {};
    for (const chat of CHATS) {
      const box = this.q(`.chat-box[data-chat="${chat}"]`);
      const off = chat === "spectators" ? hiddenBecause : null;
      const note = $(".chat-note", HTMLElement, box);
      note.hidden = !off;
      note.textContent = off || "";
      const log = $(".chat-log", HTMLElement, box);
      log.hidden = !!off;
      if (!off) this.renderLog(log, chat, hidden);
    }
    this.renderMuted(hidden);
    this.renderForm();
  }

  /**
   * @param {HTMLElement} log
   * @param {ChatName} chat
   * @param {Record<string, number>} hidden counts the messages of each muted person, as they are left out
   */
  renderLog(log, chat, hidden) {
    const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 8;
    const shown = [...this.messages.values()].filter((m) => m.chat === chat).sort((a, b) => a.id - b.id);
    const items = [];
    for (const m of shown) {
      const author = m.player || {};
      if (author.id && this.muted[author.id]) {
        hidden[author.id] = (hidden[author.id] || 0) + 1;
        continue;
      }
      items.push(this.renderMessage(m, author));
    }
    if (!items.length) {
      const empty = shown.length ? gettext("Only people you muted have written here.") : gettext("Nothing said yet.");
      items.push(el("li", "chat-empty muted small", empty));
    }
    log.replaceChildren(...items);
    if (atEnd) log.scrollTop = log.scrollHeight;
  }

  /**
   * @param {ChatMessage} m
   * @param {{id?: string, name?: string}} author
   */
  renderMessage(m, author) {
    const li = el("li", "chat-msg");
    li.dataset.id = String(m.id);
    const mine = author.id === this.me();
    if (mine) li.classList.add("mine");
    li.append(el("span", "chat-who", author.name || guestName()));
    const said = m.phrase != null ? PHRASES[m.phrase] || m.phrase : m.text;
    li.append(el("span", m.phrase != null ? "chat-text phrase" : "chat-text", said));
    const time = el("time", "chat-at muted small", clock(m.at));
    time.dateTime = m.at || "";
    li.append(time);
    if (!mine && author.id) {
      const who = author.name || guestName();
      const mute = el("button", "chat-mute", gettext("Mute"));
      mute.type = "button";
      mute.dataset.mute = author.id;
      mute.dataset.name = author.name || "";
      mute.setAttribute("aria-label", gettext("Mute %(name)s on this device", { name: who }));
      li.append(mute);
      const report = el("button", "chat-mute", gettext("Report"));
      report.type = "button";
      report.dataset.report = author.id;
      report.dataset.name = author.name || "";
      report.dataset.message = String(m.id);
      report.setAttribute("aria-label", gettext("Report %(name)s's message to the moderators", { name: who }));
      li.append(report);
    }
    return li;
  }

  /** @param {Record<string, number>} hidden */
  renderMuted(hidden) {
    const box = this.q("#chat-muted");
    const ids = Object.keys(this.muted);
    box.hidden = !ids.length;
    const items = ids.map((id) => {
      const li = el("li", "chat-muted-person");
      const count = hidden[id] || 0;
      li.append(el("span", null, `${this.muted[id]} · ${ngettext("%(n)s hidden", "%(n)s hidden", count)}`));
      const btn = el("button", "chat-mute", gettext("Unmute"));
      btn.type = "button";
      btn.dataset.unmute = id;
      btn.setAttribute("aria-label", gettext("Unmute %(name)s", { name: this.muted[id] }));
      li.append(btn);
      return li;
    });
    $("ul", HTMLUListElement, box).replaceChildren(...items);
  }

  renderForm() {
    const hasPlayer = !!this.me();
    const chat = this.myChat();
    this.q("#chat-name").hidden = hasPlayer;
    const nameInput = this.q("#chat-name-input", HTMLInputElement);
    if (!hasPlayer && !nameInput.value) nameInput.value = rememberedName();
    const form = this.q("#chat-form");
    form.hidden = !hasPlayer;
    const input = this.q("#chat-text", HTMLInputElement);
    for (const control of form.querySelectorAll("input, button")) {
      if (control instanceof HTMLInputElement || control instanceof HTMLButtonElement) control.disabled = !chat;
    }
    input.placeholder = chat ? gettext("Say something…") : gettext("The spectators' chat is off.");
    this.q("#chat-to").textContent =
      chat === "players" ? gettext("To: players' chat") : chat ? gettext("To: spectators' chat") : "";
  }
}
