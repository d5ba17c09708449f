// The site's one dialog widget, on <dialog>: every question a page asks (a report, a confirmation, a
// message) and the settings panel. showModal() makes the rest of the page inert, so focus stays inside;
// Escape closes it (the dialog's own cancel); `.dialog` in theme.css keeps it inside the screen, its body
// scrolling when it is taller. No page uses the browser's own prompts (frontend/tests/dialog.test.js).

import { gettext } from "./i18n.js";

/**
 * Makes `dialog` one of the site's dialogs: fitted to the screen, closed by Escape or a click on its backdrop.
 * @param {HTMLDialogElement} dialog
 */
export function dialogWidget(dialog) {
  dialog.classList.add("dialog");
  dialog.addEventListener("click", (ev) => {
    if (ev.target === dialog) dialog.close(); // the backdrop (the dialog's own box is covered by its content)
  });
  return dialog;
}

/**
 * @typedef {object} Action a button at the foot of a dialog
 * @property {string} label
 * @property {string} value what `ask` answers when it is pressed
 * @property {"primary" | "danger" | "ghost"} [kind]
 */

/**
 * Opens a dialog made for one question and answers the pressed button's value (null: closed without one,
 * by Escape, the backdrop or Cancel); the dialog is removed once answered.
 * @param {{title: string, body?: Node | string, actions: Action[], onOpen?: (form: HTMLFormElement) => void}} options
 *   body: a text or the fields (the dialog's form holds them); onOpen: called with the form once shown
 * @returns {Promise<{value: string, form: HTMLFormElement} | null>}
 */
export function ask({ title, body, actions, onOpen }) {
  const dialog = dialogWidget(document.createElement("dialog"));
  const form = document.createElement("form");
  form.method = "dialog";
  form.className = "dialog-form";
  const heading = document.createElement("h2");
  heading.id = `dialog-h-${Math.random().toString(36).slice(2)}`;
  heading.textContent = title;
  dialog.setAttribute("aria-labelledby", heading.id);
  const content = document.createElement("div");
  content.className = "dialog-body";
  if (typeof body === "string") {
    const p = document.createElement("p");
    p.textContent = body;
    content.append(p);
  } else if (body) content.append(body);
  const foot = document.createElement("div");
  foot.className = "dialog-actions";
  for (const action of actions) {
    const button = document.createElement("button");
    button.type = "submit";
    button.value = action.value;
    button.className = `btn small ${action.kind || "ghost"}`;
    button.textContent = action.label;
    if (action.value === "cancel") button.formNoValidate = true;
    foot.append(button);
  }
  form.append(heading, content, foot);
  dialog.append(form);
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      const value = dialog.returnValue;
      dialog.remove();
      resolve(value && value !== "cancel" ? { value, form } : null);
    });
    dialog.showModal();
    onOpen?.(form);
  });
}

/**
 * Asks a yes-or-no question: true when `yes` was pressed.
 * @param {string} title @param {string} text @param {string} yes the confirming button's label
 */
export async function confirmDialog(title, text, yes) {
  const answer = await ask({
    title,
    body: text,
    actions: [
      { label: gettext("Cancel"), value: "cancel" },
      { label: yes, value: "yes", kind: "primary" },
    ],
  });
  return answer?.value === "yes";
}

/** Tells something, with one OK button. @param {string} title @param {string} text */
export async function tellDialog(title, text) {
  await ask({ title, body: text, actions: [{ label: gettext("OK"), value: "ok", kind: "primary" }] });
}
