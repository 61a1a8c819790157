// What every screen needs to name seats and events the same way. Seats are counted from 1 wherever a person
// reads them (the API counts from 0).
import {h} from "./dom.js";

/** Name a seat: its player's name, its bot, or "open seat". */
export function seatName(seatInfo, you) {
  if (!seatInfo) return "a player";
  const number = seatInfo.seat + 1;
  const base = seatInfo.name ? seatInfo.name : seatInfo.bot ? `Bot ${number} (${seatInfo.bot})` : seatInfo.filled ? `Seat ${number}` : `open seat ${number}`;
  return seatInfo.seat === you ? `${base} (you)` : base;
}

/** Build the naming context of a view. */
export function contextFor(view, module, say = () => {}) {
  const name = (seat) => (typeof seat === "number" ? seatName(view.seats[seat], view.you) : "nobody");
  const ctx = {
    you: view.you,
    view,
    name,
    names: (list) => sentenceList((list || []).map(name)),
    say,
    actor: (event) => (typeof event.actor === "number" ? name(event.actor) : "The game"),
    classFor: (seat) => [seat === view.you ? "you" : "", view.to_act.includes(seat) ? "to-act" : ""].join(" ").trim(),
    marks: new Set(),
    spot: (key, el) => el,
    pick: (key, content) => content,
  };
  ctx.describe = (event) => describeEvent(event, module, ctx);
  return ctx;
}

/** "a", "a and b", "a, b and c". */
export function sentenceList(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Describe the events every game shares. */
function coreEvent(event, ctx) {
  const d = event.data || {};
  switch (event.type) {
    case "GameCreated":
      return `A game for ${d.seats} players was set up${d.clock ? `, ${d.clock.move_s} s a move` : ""}.`;
    case "SeatTaken":
      return `${ctx.name(d.seat)} sat down at seat ${d.seat + 1}.`;
    case "GameStarted":
      return "The game started.";
    case "TimedOut":
      return `${ctx.name(d.seat)} ran out of time: a stand-in makes that move.`;
    case "GameEnded": {
      const winners = d.result ? d.result.winners : [];
      return winners.length ? `The game is over: ${ctx.names(winners)} ${winners.length > 1 ? "win" : "wins"}.` : "The game is over.";
    }
    default:
      return null;
  }
}

/** Describe an event in one sentence: the shared events, else the game's own wording, else its kind in words. */
export function describeEvent(event, module, ctx) {
  const core = coreEvent(event, ctx);
  if (core !== null) return core;
  const own = module.describe ? module.describe(event, ctx) : null;
  if (own !== null && own !== undefined) return own;
  // Every event of the four games has its own words; an unknown one (a newer server) still reads as words.
  const kind = event.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return `${ctx.actor(event)}: ${kind}.`;
}

/** The last move a player made: its events (one command), in words; null before any. */
export function lastMove(events, view, module) {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (typeof event.actor !== "number" || event.seq > view.version) continue;
    const group = events.filter((e) => e.command_id === event.command_id && typeof e.actor === "number");
    const ctx = contextFor(view, module);
    const text = group.map(ctx.describe).filter(Boolean).join(" ");
    return {seq: event.seq, actor: event.actor, events: group, command: event.command_id, text};
  }
  return null;
}

/** The recent-events list, newest first; the last move's lines marked. */
export function eventList(events, ctx, move = null) {
  const lines = [...events].reverse().map((e) => [e, ctx.describe(e)]).filter(([, text]) => text);
  return h("section", {class: "panel log", "aria-label": "Game log"}, h("h2", {}, "What happened"),
    lines.length
      ? h("ol", {class: "events", reversed: true}, lines.map(([e, text]) =>
        h("li", {value: e.seq, class: move && e.command_id === move.command ? "last-move" : ""}, h("span", {class: "seq"}, `#${e.seq}`), " ", text)))
      : h("p", {class: "muted"}, "Nothing yet."));
}

/** The result of a finished game: every seat's score with its breakdown, who won and why. */
export function resultPanel(view, ctx, module) {
  if (!view.result) return null;
  const {places, winners} = view.result;
  const order = places.map((place, seat) => ({place, seat})).sort((a, b) => a.place - b.place);
  const why = module && module.why ? module.why(view, ctx) : null;
  // A game stopped at its game type's cap of events (its players looped) ranks as it stood then.
  const stopped = view.result.ended_by === "event_cap"
    ? h("p", {class: "muted"}, "The game reached its length limit and ended there: places as they stood.")
    : null;
  return h("section", {class: "panel result", id: "result"}, h("h2", {}, "Result"), stopped,
    h("p", {class: "winner-line"}, `${ctx.names(winners)} ${winners.length > 1 ? "share the win" : "wins"}.`, why ? ` ${why}` : ""),
    module && module.scores ? module.scores(view, ctx) : null,
    h("ol", {class: "places"}, order.map(({place, seat}) =>
      h("li", {class: winners.includes(seat) ? "winner" : ""}, `${ordinal(place)}: ${ctx.name(seat)}${winners.includes(seat) ? " — wins" : ""}`))));
}

function ordinal(n) {
  return n === 1 ? "1st" : n === 2 ? "2nd" : n === 3 ? "3rd" : `${n}th`;
}

/** A score table: one row per seat, a column per part, the total last (bold). */
export function scoreTable(caption, columns, rows, ctx) {
  return h("div", {class: "scroll-x"}, h("table", {class: "grid scores"}, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Player"), columns.map((c) => h("th", {scope: "col"}, c)))),
    h("tbody", {}, rows.map(({seat, cells}) => h("tr", {"data-seat": String(seat)}, h("th", {scope: "row"}, ctx.name(seat)),
      cells.map((c, i) => h("td", {}, i === cells.length - 1 ? h("strong", {}, String(c)) : String(c))))))));
}
