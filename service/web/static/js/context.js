// What every screen needs to name seats and events the same way. Seats are counted from 1 wherever a person
// reads them (the API counts from 0).
import {h} from "./dom.js";
import {list, ordinal, t} from "./i18n.js";

/** Name a seat: its player's name, its bot (by its tournament entrant's name, if it has one), or "open seat". */
export function seatName(seatInfo, you) {
  if (!seatInfo) return t("seat.someone");
  const number = seatInfo.seat + 1;
  const bot = seatInfo.bot && (seatInfo.name ? t("seat.bot-named", {name: seatInfo.name, bot: seatInfo.bot}) : t("seat.bot", {number, bot: seatInfo.bot}));
  const base = bot || seatInfo.name || (seatInfo.filled ? t("seat.filled", {number}) : t("seat.open", {number}));
  return seatInfo.seat === you ? t("seat.you", {name: base}) : base;
}

/** Build the naming context of a view. */
export function contextFor(view, module, say = () => {}) {
  const name = (seat) => (typeof seat === "number" ? seatName(view.seats[seat], view.you) : t("seat.nobody"));
  const ctx = {
    you: view.you,
    view,
    name,
    names: (list) => sentenceList((list || []).map(name)),
    say,
    actor: (event) => (typeof event.actor === "number" ? name(event.actor) : t("seat.game")),
    classFor: (seat) => [seat === view.you ? "you" : "", view.to_act.includes(seat) ? "to-act" : ""].join(" ").trim(),
    marks: new Set(),
    spot: (key, el) => el,
    pick: (key, content) => content,
  };
  ctx.describe = (event) => describeEvent(event, module, ctx);
  return ctx;
}

/** "a", "a and b", "a, b and c" (in the page's language). */
export function sentenceList(items) {
  return list(items);
}

/** Describe the events every game shares. */
function coreEvent(event, ctx) {
  const d = event.data || {};
  switch (event.type) {
    case "GameCreated":
      return d.clock ? t("log.created.clock", {n: d.seats, s: d.clock.move_s}) : t("log.created", {n: d.seats});
    case "SeatTaken":
      return t("log.seat-taken", {name: ctx.name(d.seat), number: d.seat + 1});
    case "GameStarted":
      return t("log.started");
    case "TimedOut":
      return t("log.timed-out", {name: ctx.name(d.seat)});
    case "GameEnded": {
      const winners = d.result ? d.result.winners : [];
      return winners.length ? t("log.ended.win", {names: ctx.names(winners), n: winners.length}) : t("log.ended");
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
  return t("log.unknown", {name: ctx.actor(event), kind});
}

/**
 * An event's caption in a replay: every event has words there, even those the table's log leaves out as
 * saying nothing new (a turn's end names who plays next).
 */
export function caption(event, module, ctx) {
  const text = describeEvent(event, module, ctx);
  if (text) return text;
  const d = event.data || {};
  if (event.type === "TurnEnded" && typeof d.next === "number") return t("log.turn-ended", {name: ctx.name(d.next)});
  const kind = event.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return t("log.unknown", {name: ctx.actor(event), kind});
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

/**
 * What a screen reader hears of other players' moves: one sentence each, its actor named first, and one
 * full stop between sentences (the log's own sentences end with theirs).
 */
export function announcement(events, ctx) {
  return events.map((event) => {
    const text = (ctx.describe(event) || "").trim().replace(/[\s.]+$/, "");
    if (!text) return null;
    const who = ctx.actor(event);
    const sentence = text.startsWith(who) ? text : `${who}: ${text}`;
    return /[!?…]$/.test(sentence) ? sentence : `${sentence}.`;
  }).filter(Boolean).join(" ");
}

/** The recent-events list, newest first; the last move's lines marked. */
export function eventList(events, ctx, move = null) {
  const lines = [...events].reverse().map((e) => [e, ctx.describe(e)]).filter(([, text]) => text);
  return h("section", {class: "panel log", "aria-label": t("log.label")}, h("h2", {}, t("log.title")),
    lines.length
      ? h("ol", {class: "events", reversed: true}, lines.map(([e, text]) =>
        h("li", {value: e.seq, class: move && e.command_id === move.command ? "last-move" : ""}, h("span", {class: "seq"}, `#${e.seq}`), " ", text)))
      : h("p", {class: "muted"}, t("log.empty")));
}

/** The result of a finished game: every seat's score with its breakdown, who won and why. */
export function resultPanel(view, ctx, module) {
  if (!view.result) return null;
  const {places, winners} = view.result;
  const order = places.map((place, seat) => ({place, seat})).sort((a, b) => a.place - b.place);
  const why = module && module.why ? module.why(view, ctx) : null;
  // A game stopped at its game type's cap of events (its players looped) ranks as it stood then.
  const stopped = view.result.ended_by === "event_cap" ? h("p", {class: "muted"}, t("result.event-cap")) : null;
  return h("section", {class: "panel result", id: "result"}, h("h2", {}, t("result.title")), stopped,
    h("p", {class: "winner-line"}, t("result.winners", {names: ctx.names(winners), n: winners.length}), why ? ` ${why}` : ""),
    module && module.scores ? module.scores(view, ctx) : null,
    h("ol", {class: "places"}, order.map(({place, seat}) =>
      h("li", {class: winners.includes(seat) ? "winner" : ""}, t(winners.includes(seat) ? "result.place.win" : "result.place", {place: ordinal(place), name: ctx.name(seat)})))));
}

/** A score table: one row per seat, a column per part, the total last (bold). */
export function scoreTable(caption, columns, rows, ctx) {
  return h("div", {class: "scroll-x"}, h("table", {class: "grid scores"}, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("result.player")), columns.map((c) => h("th", {scope: "col"}, c)))),
    h("tbody", {}, rows.map(({seat, cells}) => h("tr", {"data-seat": String(seat)}, h("th", {scope: "row"}, ctx.name(seat)),
      cells.map((c, i) => h("td", {}, i === cells.length - 1 ? h("strong", {}, String(c)) : String(c))))))));
}
