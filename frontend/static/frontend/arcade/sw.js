// The arcade's service worker, served at /arcade/sw.js (scope /arcade/): the arcade pages keep playing when
// the network goes away. The network first, always (a page and its files are fresh when it answers); the
// copy kept when it does not. A page tells it what to keep ({type: "keep", urls}: itself and the files it
// loaded, offline.js), so that the first visit is enough. The API and the socket are never kept.

const CACHE = "arcade-v1";

self.addEventListener("install", () => {
  /** @type {any} */ (self).skipWaiting();
});

self.addEventListener("activate", (/** @type {any} */ event) => {
  event.waitUntil(/** @type {any} */ (self).clients.claim());
});

/** @param {string} url */
function keepable(url) {
  const u = new URL(url);
  return u.origin === self.location.origin && !/^\/(api|ws)\//.test(u.pathname);
}

self.addEventListener("message", (/** @type {any} */ event) => {
  const data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  const port = event.ports[0];
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) =>
        Promise.all(
          data.urls.filter(keepable).map((/** @type {string} */ url) =>
            fetch(url, { credentials: "same-origin" })
              .then((res) => (res.ok ? cache.put(url, res) : undefined))
              .catch(() => undefined),
          ),
        ),
      )
      .then(() => port?.postMessage("kept")),
  );
});

self.addEventListener("fetch", (/** @type {any} */ event) => {
  const request = event.request;
  if (request.method !== "GET" || !keepable(request.url)) return;
  event.respondWith(
    fetch(request)
      .then((res) => {
        if (res.ok && res.type === "basic") {
          const copy = res.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return res;
      })
      .catch(() =>
        caches.match(request, { ignoreSearch: request.mode === "navigate" }).then((found) => found || Response.error()),
      ),
  );
});
