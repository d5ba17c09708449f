// Rooms where this device took a seat, kept in localStorage so the home page can offer
// "continue your game" even before the server lists them.

const KEY = "fiar3d.rooms";
const KEEP = 6;

/** @returns {Array<{code: string, at: number}>} */
export function recentRooms() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((r) => r && typeof r.code === "string") : [];
  } catch {
    return [];
  }
}

/** @param {string} code */
export function rememberRoom(code) {
  try {
    const list = recentRooms().filter((r) => r.code !== code);
    list.unshift({ code, at: Date.now() });
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, KEEP)));
  } catch {
    /* storage unavailable: the server's list still works */
  }
}

/** @param {string} code */
export function forgetRoom(code) {
  try {
    localStorage.setItem(KEY, JSON.stringify(recentRooms().filter((r) => r.code !== code)));
  } catch {
    /* ignore */
  }
}
