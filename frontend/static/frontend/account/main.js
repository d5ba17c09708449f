// The account page (/account): the address (add or change, confirmed by the emailed link; remove), the
// emails by kind, the password, the access tokens, and links to the data export and to closing the
// account; the language is the footer's form. Every part calls the REST API (docs/protocol.md, "Accounts").

import { apiDelete, apiGet, apiPatch, apiPost, errorText } from "../api.js";
import { confirmDialog } from "../dialog.js";
import { $ } from "../dom.js";
import { formatDate, gettext } from "../i18n.js";

/** @typedef {import("../api.js").Json} Json */

const status = $("#acct-status");

/** @param {string} selector @param {string} text @param {boolean} [bad] */
function say(selector, text, bad = false) {
  const el = $(selector);
  el.textContent = text;
  el.classList.toggle("error-text", bad);
}

/** The address as it stands. @param {Json} me GET /api/accounts/me */
function showEmail(me) {
  const now = $("#email-now");
  if (!me.email) now.textContent = gettext("No address: the site sends you no email, and cannot reset your password.");
  else if (me.email_confirmed) now.textContent = gettext("%(email)s, confirmed.", { email: me.email });
  else now.textContent = gettext("%(email)s, waiting for you to follow the link emailed to it.", { email: me.email });
  $("#email-remove").hidden = !me.email;
}

/** @param {Json} token */
function tokenItem(token) {
  const li = document.createElement("li");
  const used = token.last_used_at ? formatDate(token.last_used_at) : gettext("never");
  li.textContent = gettext("%(description)s (…%(hint)s), made %(made)s, last used %(used)s", {
    description: token.description,
    hint: token.hint,
    made: formatDate(token.created_at),
    used,
  });
  const revoke = document.createElement("button");
  revoke.type = "button";
  revoke.className = "btn small ghost";
  revoke.textContent = gettext("Revoke");
  revoke.addEventListener("click", async () => {
    const sure = await confirmDialog(
      gettext("Revoke this token?"),
      gettext("A bot or script using %(description)s stops working at once.", { description: token.description }),
      gettext("Revoke"),
    );
    if (!sure) return;
    try {
      await apiDelete(`/api/accounts/tokens/${encodeURIComponent(token.id)}`);
      li.remove();
    } catch (err) {
      say("#token-said", errorText(err), true);
    }
  });
  li.append(" ", revoke);
  return li;
}

async function showTokens() {
  const tokens = await apiGet("/api/accounts/tokens");
  $("#tokens").replaceChildren(...tokens.map(tokenItem));
}

/**
 * Runs a form's request with its submit button disabled, saying the outcome under it.
 * @param {HTMLFormElement} form @param {string} said @param {() => Promise<string>} act its success text
 */
function onSubmit(form, said, act) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = form.querySelector("button[type=submit]");
    if (button instanceof HTMLButtonElement) button.disabled = true;
    try {
      say(said, await act());
    } catch (err) {
      say(said, errorText(err), true);
    } finally {
      if (button instanceof HTMLButtonElement) button.disabled = false;
    }
  });
}

async function start() {
  const me = await apiGet("/api/accounts/me");
  status.hidden = true;
  if (!me.username) {
    $("#acct-guest").hidden = false;
    return;
  }
  $("#acct-body").hidden = false;
  $("#acct-username").textContent = me.username;
  $("#acct-player", HTMLAnchorElement).href = `/players/${encodeURIComponent(me.player.id)}`;
  showEmail(me);

  const emailForm = $("#email-form", HTMLFormElement);
  const address = $("#email-address", HTMLInputElement);
  onSubmit(emailForm, "#email-said", async () => {
    showEmail({ ...(await apiPost("/api/accounts/email", { email: address.value.trim() })) });
    address.value = "";
    return gettext("A confirmation link is on its way: the address counts once you follow it.");
  });
  $("#email-remove").addEventListener("click", async () => {
    const sure = await confirmDialog(
      gettext("Remove the address?"),
      gettext("The site will send you no email, and a forgotten password cannot be reset."),
      gettext("Remove"),
    );
    if (!sure) return;
    try {
      showEmail(await apiDelete("/api/accounts/email"));
      say("#email-said", gettext("The address is removed."));
    } catch (err) {
      say("#email-said", errorText(err), true);
    }
  });

  const notify = $("#notify-form", HTMLFormElement);
  for (const [kind, on] of Object.entries(me.email_notifications || {})) {
    const box = notify.elements.namedItem(kind);
    if (box instanceof HTMLInputElement) box.checked = on === true;
  }
  notify.addEventListener("change", async (ev) => {
    const box = /** @type {HTMLInputElement} */ (ev.target);
    try {
      await apiPatch("/api/accounts/me", { email_notifications: { [box.name]: box.checked } });
      say("#notify-said", me.email_confirmed ? gettext("Saved.") : gettext("Saved: they go to a confirmed address."));
    } catch (err) {
      box.checked = !box.checked;
      say("#notify-said", errorText(err), true);
    }
  });

  const password = $("#password-form", HTMLFormElement);
  onSubmit(password, "#password-said", async () => {
    const fields = new FormData(password);
    await apiPost("/api/accounts/password", { current: fields.get("current"), password: fields.get("password") });
    password.reset();
    return gettext("Your password is changed; your other devices are signed out.");
  });

  const tokenForm = $("#token-form", HTMLFormElement);
  const description = $("#token-description", HTMLInputElement);
  onSubmit(tokenForm, "#token-said", async () => {
    const made = await apiPost("/api/accounts/tokens", { description: description.value.trim() });
    description.value = "";
    $("#tokens").prepend(tokenItem(made));
    return gettext("Your new token, shown this once: %(token)s", { token: made.token });
  });
  await showTokens();
}

start().catch((err) => {
  status.hidden = false;
  status.textContent = errorText(err);
});
