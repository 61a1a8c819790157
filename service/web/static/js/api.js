// The JSON API as the page uses it: one fetch wrapper, the seat tokens kept in localStorage, and the live feed.

/** An error answered by the API: {error: {code, message, details}} with its HTTP status. */
export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details || {};
  }
}

/** Call the API; resolve with the JSON body or reject with an ApiError. */
export async function api(method, path, {token = null, body = undefined} = {}) {
  const headers = {Accept: "application/json"};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (err) {
    throw new ApiError(0, "network", "The server did not answer; check your connection and try again.");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || "http_error", error.message || response.statusText, error.details);
  }
  return data;
}

const enc = encodeURIComponent;

/** The seat tokens this browser holds, one per game, so a reload resumes the game. */
export const seats = {
  get(gameId) {
    try {
      return JSON.parse(localStorage.getItem(`menagerie:seat:${gameId}`));
    } catch {
      return null;
    }
  },
  put(gameId, info) {
    localStorage.setItem(`menagerie:seat:${gameId}`, JSON.stringify(info));
  },
  forget(gameId) {
    localStorage.removeItem(`menagerie:seat:${gameId}`);
  },
};

/**
 * Call onEvents(events, version) with every event after `after`, redacted for the token's seat, as they happen.
 *
 * For now this polls GET /games/{id}/events?after=N about once a second; when the server offers
 * GET /games/{id}/stream it can become an EventSource here without its callers changing.
 * Returns stop(); stop.poke() asks for the next page at once (after one's own move).
 */
export function subscribe(gameId, after, onEvents, {token = null, interval = 1000} = {}) {
  let cursor = after;
  let stopped = false;
  let timer = null;
  let busy = false;
  async function poll() {
    if (stopped || busy) return;
    busy = true;
    clearTimeout(timer);
    try {
      for (;;) {
        const page = await api("GET", `/games/${enc(gameId)}/events?after=${cursor}`, {token});
        if (stopped) return;
        if (page.events.length) {
          cursor = page.events[page.events.length - 1].seq;
          onEvents(page.events, page.version);
        }
        if (!page.more || !page.events.length) break;
      }
    } catch (err) {
      // A blip (server restart, network) is retried on the next tick; the caller keeps its last view.
      console.warn("feed", err);
    } finally {
      busy = false;
      if (!stopped) timer = setTimeout(poll, interval);
    }
  }
  timer = setTimeout(poll, 0);
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  stop.poke = () => poll();
  return stop;
}

/** Read a whole event log (paged), redacted for the token's seat. */
export async function allEvents(gameId, token = null) {
  const events = [];
  for (;;) {
    const page = await api("GET", `/games/${enc(gameId)}/events?after=${events.length}&limit=1000`, {token});
    events.push(...page.events);
    if (!page.more || !page.events.length) return events;
  }
}

/** Say what an API error means for a player, in one sentence. */
export function explain(err) {
  if (!(err instanceof ApiError)) return String(err && err.message ? err.message : err);
  switch (err.status) {
    case 409:
      return "The game moved on before your move arrived (someone else acted first). The table is up to date again; choose again.";
    case 422:
      return `That move is not allowed: ${err.message}`;
    case 401:
    case 403:
      return `Your seat token was refused (${err.message}). You are watching as a spectator.`;
    case 404:
      return `Not found: ${err.message}`;
    case 400:
      return `The request was refused: ${err.message}`;
    default:
      return err.message || `Error ${err.status}`;
  }
}
