// What the pages put on `window` for the browser tests (tests/e2e) and curious developers.
interface Window {
  __room?: unknown;
  __lobby?: unknown;
  __puzzle?: unknown;
  __replay?: unknown;
  __analysis?: unknown;
  // The browser tests set it to an array to hear which sounds a page played.
  __sounds?: string[];
}
