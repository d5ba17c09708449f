// REST helpers: JSON in and out, the CSRF header on writes, errors as ApiError.

export class ApiError extends Error {
  constructor(status, body) {
    super((body && (body.message || body.detail)) || `Request failed (${status})`);
    this.status = status;
    this.body = body || {};
    this.code = this.body.code || null;
  }
}

export function cookie(name) {
  for (const part of document.cookie.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return null;
}

async function request(method, url, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = cookie("csrftoken") || "";
  const res = await fetch(url, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  /** @type {any} the JSON body, whatever the endpoint answers */
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

export const apiGet = (url) => request("GET", url);
export const apiPost = (url, body = {}) => request("POST", url, body);

/**
 * The device's session or null when the device has no player yet:
 * {player: {id, name}, rating: {rating, rd, provisional, display}, username: null | "ann", rooms: [{code, seat, playing}]}.
 * The server answers 200 {"player": null, ...} for a device without a player (a first visit is no error).
 */
export async function getSession() {
  const session = await apiGet("/api/session");
  return session?.player ? session : null;
}

/** Creates the device's guest player, or renames it. Returns the session shape above. */
export async function saveName(name) {
  const body = {};
  const trimmed = (name || "").trim();
  body.name = trimmed || "Guest";
  return apiPost("/api/session", body);
}

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

export const register = (username, password) => apiPost("/api/accounts/register", { username, password });
export const login = (username, password) => apiPost("/api/accounts/login", { username, password });
export const logout = () => apiPost("/api/accounts/logout");

// ---- how ratings read everywhere ------------------------------------------------------------------------

/** A signed whole-point change with a real minus sign: +8, −10, ±0. */
export function signedPoints(change) {
  const n = Math.round(Number(change));
  if (!Number.isFinite(n)) return "";
  if (n === 0) return "±0";
  return n > 0 ? `+${n}` : `\u2212${-n}`;
}

export const PROVISIONAL_NOTE =
  "A question mark means the rating is provisional: too few rated games yet (or a long time away) to be sure of it.";

export function escapeHtml(s) {
  return String(s ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}

/** A player's name as the site shows it: "BOT robo" for a bot account (``title``), else the name. */
export function shownName(player) {
  const name = player?.name || "Guest";
  return player?.title ? `${player.title} ${name}` : name;
}
