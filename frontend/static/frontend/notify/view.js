// The bell and the inbox, drawn: the header's count and list (from a BellState, notify/state.js), an
// incoming challenge's card with Accept and Decline, and a short-lived card for any other notification.
// Rendering only: what a click does is the handlers' (notify/main.js).

import { $ } from "../dom.js";
import { formatDate, gettext, ngettext } from "../i18n.js";
import { escapeHtml, shownName } from "../text.js";
import { rulesText } from "./state.js";

/** @typedef {import("../api.js").Json} Json */
/** @typedef {import("./state.js").BellState} BellState */

/**
 * @param {BellState} bell
 * @param {(note: Json) => void} open what clicking a notification does
 */
export function drawBell(bell, open) {
  const count = $("#bell-count");
  count.textContent = String(bell.unread);
  count.hidden = bell.unread === 0;
  $("#bell-button").setAttribute(
    "aria-label",
    ngettext("Notifications, %(n)s unread", "Notifications, %(n)s unread", bell.unread),
  );
  const list = $("#bell-list");
  list.replaceChildren();
  if (bell.items.length === 0) {
    const empty = document.createElement("li");
    empty.className = "muted small";
    empty.textContent = gettext("Nothing yet.");
    list.append(empty);
  }
  for (const note of bell.items) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = note.read ? "bell-item" : "bell-item unread";
    button.dataset.kind = note.kind;
    button.innerHTML = `<span>${escapeHtml(note.text)}</span><time class="muted small">${escapeHtml(
      formatDate(note.created_at),
    )}</time>`;
    button.addEventListener("click", () => open(note));
    item.append(button);
    list.append(item);
  }
}

/**
 * An incoming challenge's card (once per challenge), removed when it expires.
 * @param {Json} challenge as GET /api/challenge shows it
 * @param {{accept: (id: string) => Promise<void>, decline: (id: string) => Promise<void>}} act
 */
export function drawChallengeCard(challenge, act) {
  const inbox = $("#inbox");
  const id = String(challenge.id);
  if (inbox.querySelector(`[data-challenge="${CSS.escape(id)}"]`)) return;
  const card = document.createElement("div");
  card.className = "inbox-card";
  card.dataset.challenge = id;
  card.setAttribute("role", "alertdialog");
  card.setAttribute("aria-label", gettext("Challenge from %(name)s", { name: shownName(challenge.challenger) }));
  const rating = challenge.challenger.rating ? ` (${escapeHtml(challenge.challenger.rating)})` : "";
  const who = `<b>${escapeHtml(shownName(challenge.challenger))}</b>${rating}`;
  card.innerHTML = `<p>${gettext("%(who)s challenges you", { who })}</p>
    <p class="muted small">${escapeHtml(rulesText(challenge, "dest"))}</p>
    <p class="inbox-error small" role="status"></p>
    <div class="inbox-actions"><button type="button" class="btn primary small" data-act="accept">${escapeHtml(gettext("Accept"))}</button>
    <button type="button" class="btn ghost small" data-act="decline">${escapeHtml(gettext("Decline"))}</button></div>`;
  const error = $(".inbox-error", HTMLElement, card);
  for (const button of card.querySelectorAll("button")) {
    button.addEventListener("click", async () => {
      for (const b of card.querySelectorAll("button")) b.disabled = true;
      try {
        await (button.dataset.act === "accept" ? act.accept(id) : act.decline(id));
        card.remove();
      } catch (err) {
        error.textContent = err instanceof Error ? err.message : String(err);
        setTimeout(() => card.remove(), 4000);
      }
    });
  }
  inbox.append(card);
  const left = Date.parse(challenge.expires_at) - Date.now();
  if (Number.isFinite(left)) setTimeout(() => card.remove(), Math.max(0, left));
}

/** Removes the card of challenge `id`, if shown (it was answered elsewhere). @param {string} id */
export function removeChallengeCard(id) {
  document.querySelector(`#inbox [data-challenge="${CSS.escape(id)}"]`)?.remove();
}

/**
 * A card saying what happened (a challenge's answer, a follower, an arena), with its link; gone after a while.
 * @param {Json} note
 */
export function drawNoticeCard(note) {
  const card = document.createElement("div");
  card.className = "inbox-card";
  card.setAttribute("role", "status");
  card.innerHTML = note.url
    ? `<a href="${escapeHtml(note.url)}">${escapeHtml(note.text)}</a>`
    : `<span>${escapeHtml(note.text)}</span>`;
  $("#inbox").append(card);
  setTimeout(() => card.remove(), 8000);
}
