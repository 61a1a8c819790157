// What every screen needs to name seats and events the same way.
import {h, pretty} from "./dom.js";

/** Name a seat: its player's name, its bot, or "open seat". */
export function seatName(seatInfo, you) {
  if (!seatInfo) return "?";
  const base = seatInfo.name ? seatInfo.name : seatInfo.bot ? `Bot ${seatInfo.seat + 1} (${seatInfo.bot})` : seatInfo.filled ? `Seat ${seatInfo.seat + 1}` : "open seat";
  return seatInfo.seat === you ? `${base} (you)` : base;
}

/** Build the naming context of a view. */
export function contextFor(view, module, say = () => {}) {
  const name = (seat) => (seat === null || seat === undefined ? "—" : seatName(view.seats[seat], view.you));
  const ctx = {
    you: view.you,
    name,
    say,
    actor: (event) => (typeof event.actor === "number" ? name(event.actor) : /^\d+$/.test(String(event.actor)) ? name(Number(event.actor)) : "The game"),
    classFor: (seat) => [seat === view.you ? "you" : "", view.to_act.includes(seat) ? "to-act" : ""].join(" ").trim(),
  };
  ctx.describe = (event) => describeEvent(event, module, ctx);
  return ctx;
}

const SKIP = new Set(["hash", "seed", "seed_commitment", "token_sha256", "card_set", "deck", "draw", "hands", "cards_by_seat"]);

function summary(data) {
  const bits = [];
  for (const [key, value] of Object.entries(data || {})) {
    if (SKIP.has(key) || value === null || value === undefined) continue;
    if (typeof value === "object" && !Array.isArray(value)) continue;
    if (Array.isArray(value) && (value.length > 8 || value.some((v) => typeof v === "object" && v !== null))) continue;
    bits.push(`${key.replace(/_/g, " ")} ${Array.isArray(value) ? value.map((v) => pretty(v)).join(", ") : pretty(value)}`);
    if (bits.length >= 4) break;
  }
  return bits.join("; ");
}

/** Describe an event in one line: the game's own wording, else its type and a short summary. */
export function describeEvent(event, module, ctx) {
  const own = module.describe ? module.describe(event, ctx) : null;
  if (own) return own;
  const type = event.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  const who = ctx.actor(event);
  const rest = summary(event.data);
  return `${who}: ${type}${rest ? ` (${rest})` : ""}`;
}

/** The recent-events list. */
export function eventList(events, ctx, label = "What just happened") {
  return h("section", {class: "panel log"}, h("h2", {}, label),
    events.length
      ? h("ol", {class: "events", reversed: true}, [...events].reverse().map((e) => h("li", {value: e.seq}, h("span", {class: "seq"}, `#${e.seq}`), " ", ctx.describe(e))))
      : h("p", {class: "muted"}, "Nothing yet."));
}

/** The result of a finished game: places, best first. */
export function resultPanel(view, ctx) {
  if (!view.result) return null;
  const order = view.result.places.map((place, seat) => ({place, seat})).sort((a, b) => a.place - b.place);
  // A game stopped at its game type's cap of events (its players looped) ranks as it stood then.
  const stopped = view.result.ended_by === "event_cap"
    ? h("p", {class: "muted"}, "The game reached its length limit and ended there: places as they stood.")
    : null;
  return h("section", {class: "panel result", id: "result"}, h("h2", {}, "Result"), stopped,
    h("ol", {class: "places"}, order.map(({place, seat}) => h("li", {class: view.result.winners.includes(seat) ? "winner" : ""}, `${place}. ${ctx.name(seat)}${view.result.winners.includes(seat) ? " — wins" : ""}`))));
}
