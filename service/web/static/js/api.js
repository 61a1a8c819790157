// The JSON API as the page uses it: one fetch wrapper, the seat tokens kept per tab, and the live feed.
import {t} from "./i18n.js";

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
export async function api(method, path, {token = null, body = undefined, key = null} = {}) {
  const headers = {Accept: "application/json"};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (key) headers["Idempotency-Key"] = key;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (err) {
    throw new ApiError(0, "network", t("error.network"));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || "http_error", error.message || response.statusText, error.details);
  }
  return data;
}

const enc = encodeURIComponent;

/** A fresh Idempotency-Key (a random UUIDv4): a retried create or join then takes effect once. */
export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  // randomUUID exists only in secure contexts; a phone on http://<lan address> gets the same v4 form this way.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const x = [...b].map((v) => v.toString(16).padStart(2, "0")).join("");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

const contributions = new Map();

/**
 * This seat's contribution to a shared deal, for the create or join sent under `key`: 16 fresh
 * random bytes as hex, public in the game's log, so no one alone chooses the deal. A retry under
 * the same key sends the same bytes (another body under one key would be refused).
 */
export function entropyFor(key) {
  if (!contributions.has(key)) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    contributions.set(key, [...bytes].map((v) => v.toString(16).padStart(2, "0")).join(""));
  }
  return contributions.get(key);
}

/**
 * The seat tokens this tab holds, one per game, so a reload resumes the game. Kept per tab
 * (sessionStorage), never shared between tabs: two tabs may hold two seats of one game.
 */
export const seats = tabStore("seat");

/** The tournament entries (entrant tokens) this tab holds, one per tournament. */
export const entries = tabStore("entry");

/**
 * The receipts this tab keeps, per game: each event the server acknowledged to this tab's seat as
 * `{seq, hash}`, its SeatTaken first. One a line, they are the receipts file an auditor checks the
 * published game against (`menagerie audit game.ndjson --receipts receipts-<game id>.ndjson`).
 */
export const receipts = {
  get: (gameId) => tabStore("receipts").get(gameId) || [],
  add(gameId, events) {
    const kept = receipts.get(gameId);
    const known = new Set(kept.map((r) => r.seq));
    tabStore("receipts").put(gameId, [...kept, ...events.filter((e) => !known.has(e.seq)).map((e) => ({seq: e.seq, hash: e.hash}))]);
  },
};

/**
 * Keep a seat's receipt (the SeatTaken event a create or join answer holds) or an entrant's (the
 * PlayerRegistered a registration answer holds), under its game's or tournament's id, and tell
 * whether it holds the entropy this tab sent: a shared deal must have taken it, a fixed one none.
 */
export function keepSeatReceipt(gameId, receipt, sent, dealing) {
  receipts.add(gameId, [receipt]);
  const held = receipt.data.entropy ?? null;
  return held === (dealing === "shared" ? sent : null);
}

function tabStore(kind) {
  return {
    get(id) {
      try {
        return JSON.parse(sessionStorage.getItem(`menagerie:${kind}:${id}`));
      } catch {
        return null;
      }
    },
    put(id, info) {
      sessionStorage.setItem(`menagerie:${kind}:${id}`, JSON.stringify(info));
    },
    forget(id) {
      sessionStorage.removeItem(`menagerie:${kind}:${id}`);
    },
    /** Every kept `[id, info]`, in no particular order. */
    all() {
      const prefix = `menagerie:${kind}:`;
      return Object.keys(sessionStorage).filter((key) => key.startsWith(prefix)).map((key) => [key.slice(prefix.length), this.get(key.slice(prefix.length))]).filter(([, info]) => info);
    },
  };
}

/**
 * Follow a game's events live: `GET /games/{id}/stream` (Server-Sent Events), read with fetch so
 * the seat token goes in the Authorization header, never in a URL. `onEvents(events, version)` gets
 * each event as it is appended; the stream resumes after the last event seen when it is cut, and
 * ends after GameEnded. While the server refuses the stream, the log is read instead at each retry.
 * `onConnect()` is called each time the stream opens (again): what was missed meanwhile may need a read.
 * Returns a function that stops following.
 */
export function subscribe(gameId, after, onEvents, {token = null, retry = 2000, onConnect = () => {}} = {}) {
  let cursor = after;
  let stopped = false;
  let controller = null;
  let timer = null;
  /** Read the events after the cursor from the log, hand them on; return the last one's type. */
  async function catchUp() {
    const page = await api("GET", `/games/${enc(gameId)}/events?after=${cursor}&limit=1000`, {token});
    if (!page.events.length || stopped) return null;
    cursor = page.events[page.events.length - 1].seq;
    onEvents(page.events, cursor);
    return page.events[page.events.length - 1].type;
  }
  async function listen() {
    if (stopped) return;
    controller = new AbortController();
    let lastType = null;
    try {
      const headers = {Accept: "text/event-stream"};
      if (token) headers.Authorization = `Bearer ${token}`;
      const response = await fetch(`/games/${enc(gameId)}/stream?after=${cursor}`, {headers, signal: controller.signal});
      if (!response.ok || !response.body) {
        // Refused (the server holds as many streams as it may: 503 streams_full) or down: read what
        // was missed from the log instead, so the page still moves, and ask for the stream again later.
        lastType = (await catchUp()) || lastType;
        throw new Error(`stream answered ${response.status}`);
      }
      onConnect();
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const {value, done} = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, {stream: true});
        const batch = []; // what one read brought: a batch of events is drawn once
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = block.split("\n").filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("\n");
          if (!data) continue; // a heartbeat or the retry hint
          const event = JSON.parse(data);
          cursor = event.seq;
          lastType = event.type;
          batch.push(event);
        }
        if (batch.length) onEvents(batch, cursor);
      }
    } catch (err) {
      if (stopped) return;
      // A blip (server restart, network): resume after the last event seen; the caller keeps its view.
      console.warn("feed", err);
    }
    if (!stopped && lastType !== "GameEnded") timer = setTimeout(listen, retry);
  }
  listen();
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    if (controller) controller.abort();
  };
  stop.poke = () => {}; // the stream brings every move as it is made
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
  if (err.code === "unknown_player_token") return t("error.unknown_player_token");
  switch (err.status) {
    case 409:
      return t("error.409");
    case 422:
      return t("error.422", {why: err.message});
    case 401:
    case 403:
      return t("error.401", {why: err.message});
    case 404:
      return t("error.404", {why: err.message});
    case 400:
      return t("error.400", {why: err.message});
    default:
      return err.message || t("error.other", {status: err.status});
  }
}
