// The arcade pages offline: the service worker (/arcade/sw.js, served by frontend/arcade_pages.py from
// arcade/sw.js) keeps the page and every file it loaded, and a local run is kept on the device, per mode, so
// that a reload without a network resumes it. A local run never ranks and is never sent.

import { modeById } from "./rules.js";

/** @typedef {import("./run.js").Run} Run */

const LOCAL = "arcade.local.";

/**
 * Registers the service worker and, once it runs, tells it to keep this page and the files it loaded.
 * @returns {Promise<boolean>} whether the page and its files are kept for offline use
 */
export async function keepForOffline() {
  if (!("serviceWorker" in navigator)) return false;
  try {
    await navigator.serviceWorker.register("/arcade/sw.js", { scope: "/arcade/" });
    const ready = await navigator.serviceWorker.ready;
    const urls = [
      location.href,
      ...performance
        .getEntriesByType("resource")
        .map((entry) => entry.name)
        .filter((url) => url.startsWith(location.origin) && !/\/(api|ws)\//.test(url)),
    ];
    const worker = ready.active;
    if (!worker) return false;
    return await new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (ev) => resolve(ev.data === "kept");
      worker.postMessage({ type: "keep", urls }, [channel.port2]);
    });
  } catch {
    return false;
  }
}

/**
 * The local run of a mode kept on this device, or null.
 * @param {string} modeId
 * @returns {Run | null}
 */
export function savedLocalRun(modeId) {
  try {
    const data = JSON.parse(localStorage.getItem(LOCAL + modeId) || "null");
    if (!data || !Array.isArray(data.board)) return null;
    return { ...data, mode: modeById(modeId) };
  } catch {
    return null;
  }
}

/**
 * Keeps (or forgets, with null) the mode's local run.
 * @param {string} modeId
 * @param {Run | null} run
 */
export function saveLocalRun(modeId, run) {
  try {
    if (run) localStorage.setItem(LOCAL + modeId, JSON.stringify({ ...run, mode: modeId }));
    else localStorage.removeItem(LOCAL + modeId);
  } catch {
    /* private mode: the run lives as long as the page */
  }
}
