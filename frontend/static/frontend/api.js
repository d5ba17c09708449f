// REST helpers: JSON in and out, the CSRF header on writes, errors as ApiError.

import { gettext } from "./i18n.js";
import { guestName } from "./text.js";

/**
 * A JSON body or frame as the server sent it (docs/protocol.md says what each holds); the pages read the
 * fields they know. The room socket's frames have their own types (room/types.js).
 * @typedef {any} Json
 */

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status
   * @param {Json} body the error body ({code, message}) or null
   */
  constructor(status, body) {
    super(
      (body && (body.message || body.detail)) || gettext("Request failed (%(status)s)", { status: String(status) }),
    );
    this.status = status;
    this.body = body || {};
    /** @type {string | null} */
    this.code = this.body.code || null;
  }
}

/**
 * What a caught error says (an ApiError carries the server's message).
 * @param {unknown} err
 */
export function errorText(err) {
  return err instanceof Error ? err.message : String(err);
}

/** @param {string} name @returns {string | null} */
export function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return null;
}

/**
 * @param {string} method
 * @param {string} url
 * @param {object} [body]
 * @returns {Promise<Json>} the JSON answer (null when empty)
 */
async function request(method, url, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = cookie("csrftoken") || "";
  const res = await fetch(url, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  /** @type {Json} */
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { message: text.slice(0, 200) };
    }
  }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

/** @param {string} url */
export const apiGet = (url) => request("GET", url);
/** @param {string} url @param {object} [body] */
export const apiPost = (url, body = {}) => request("POST", url, body);
/** @param {string} url */
export const apiDelete = (url) => request("DELETE", url);
/** @param {string} url @param {object} body */
export const apiPatch = (url, body) => request("PATCH", url, body);

/**
 * The device's session or null when the device has no player yet:
 * {player: {id, name}, rating: {rating, rd, provisional, display}, username: null | "ann", rooms: [{code, seat, playing}]}.
 * The server answers 200 {"player": null, ...} for a device without a player (a first visit is no error).
 */
export async function getSession() {
  const session = await apiGet("/api/session");
  return session?.player ? session : null;
}

/**
 * Creates the device's guest player, or renames it. Returns the session shape above.
 * @param {string | null | undefined} name
 */
export async function saveName(name) {
  const trimmed = (name || "").trim();
  // No name, or the word "Guest": the server names a new guest "Guest 4F2A" (from its id) and keeps a player's name.
  const session = await apiPost("/api/session", trimmed && trimmed !== guestName() ? { name: trimmed } : {});
  sessionChanges.dispatchEvent(new Event("saved"));
  return session;
}

/** A "saved" Event each time saveName made or renamed the device's player: the bell of a page opened
 * without a player starts then (notify/main.js). */
export const sessionChanges = new EventTarget();

/** @param {string} name */
export function rememberName(name) {
  try {
    localStorage.setItem("fiar3d.name", name);
  } catch {
    /* private mode */
  }
}

export function rememberedName() {
  try {
    return localStorage.getItem("fiar3d.name") || "";
  } catch {
    return "";
  }
}

// ---- accounts: each answers {player, username}; errors are ApiError with the server's message ----------
// The CSRF header is read from the cookie on every request, so the token a login rotates is picked up.

/** @param {string} username @param {string} password */
export const register = (username, password) => apiPost("/api/accounts/register", { username, password });
/** @param {string} username @param {string} password */
export const login = (username, password) => apiPost("/api/accounts/login", { username, password });
export const logout = () => apiPost("/api/accounts/logout");
