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

/** The device's session ({player, rooms?}) or null when the device has no player yet. */
export async function getSession() {
  try {
    return await apiGet("/api/session");
  } catch (err) {
    if (err.status === 404) return null;
    throw err;
  }
}

/** Creates the device's guest player, or renames it. Returns {player}. */
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
