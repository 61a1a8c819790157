// Life is Life at the table: four rows to trade for, your hand by species, lives; pick a row and as many
// hand cards, then confirm. Each card shows its value, read from the view (`state.values`).
import {back, face, fan} from "../cards.js";
import {exactly} from "../choose.js";
import {scoreTable, sentenceList} from "../context.js";
import {h, pretty, tally} from "../dom.js";

const GAME = "life-is-life";

function card(s, name, small = false) {
  return face({game: GAME, species: name, name: pretty(name), number: s.values ? s.values[name] : null, small});
}

const PLURAL = {sheep: "sheep", mouse: "mice"};
const many = (name) => PLURAL[name] || `${name}s`;
const plural = (name, n) => `${n} ${n === 1 ? name : many(name)}`;
const cardWords = (list) => sentenceList(tally(list).map(([name, n]) => plural(name, n)));

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.rows === undefined) return h("p", {class: "muted"}, "Waiting for the deal.");
  const rows = h("ol", {class: "rows", "aria-label": "Rows to trade for"},
    s.rows.map((row, i) => h("li", {},
      ctx.pick(`row:${i + 1}`, h("span", {class: "row-pick"}, h("span", {class: "row-label"}, `Row ${i + 1}`), fan(row.map((c) => card(s, c)))),
        `Row ${i + 1}: ${row.map((c) => `${pretty(c)} ${s.values[c]}`).join(", ")}`, "row"))));
  const players = h("ul", {class: "seats"},
    Array.from({length: s.players}, (_, seat) => ctx.spot(`seat:${seat}`, h("li", {class: ctx.classFor(seat)},
      h("strong", {}, ctx.name(seat)),
      h("span", {class: "stat lives", "aria-label": `${s.lives[seat]} lives`}, `${"♥".repeat(Math.min(s.lives[seat], 9))} ${s.lives[seat]}`),
      s.out[seat] ? h("span", {class: "tag"}, "out") : h("span", {class: "stat"}, back(s.hand_counts[seat] ?? 0, "cards in hand")),
      s.traded[seat] ? h("span", {class: "tag"}, "traded") : null,
      s.knocked[seat] ? h("span", {class: "tag warn"}, "knocked") : null,
      s.known && s.known[seat] && s.known[seat].length && seat !== view.you
        ? h("span", {class: "known"}, "Known in hand: ", fan(s.known[seat].map((c) => card(s, c, true))))
        : null))));
  const parts = [
    h("p", {class: "facts"}, `Phase ${s.phase}`, s.last_round ? " · last round: someone knocked" : "", ` · ${s.set_aside_count} cards set aside`, s.advanced ? " · advanced variant" : ""),
    rows,
    players,
  ];
  if (s.hand) {
    parts.push(h("div", {class: "hand", "aria-label": "Your hand"}, h("h3", {}, `Your hand (${s.hand.length})`),
      h("div", {class: "fan"}, tally(s.hand).map(([c, n]) =>
        ctx.pick(`hand:${c}`, h("span", {class: "stack"}, card(s, c), n > 1 ? h("span", {class: "stack-count"}, `×${n}`) : null),
          `${pretty(c)}, value ${s.values[c]}, ${n} in hand`, "hand-card")))));
  }
  if (s.hands) {
    parts.push(h("div", {class: "hand open"}, h("h3", {}, "Every hand"),
      s.hands.map((cs, seat) => h("p", {}, h("strong", {}, `${ctx.name(seat)}: `), fan(cs.map((c) => card(s, c, true)))))));
  }
  if (s.sudden_death) parts.push(h("p", {class: "note"}, `Sudden death by ${ctx.name(s.sudden_death.seat)}: all the ${s.sudden_death.species.map(many).join(", ")}.`));
  if (s.last_scoring) parts.push(scoring(s.last_scoring, ctx));
  return h("div", {class: "board lil"}, parts);
}

function scoring(sc, ctx) {
  const lost = sc.lost.map((n, seat) => (n ? `${ctx.name(seat)} −${n}` : null)).filter(Boolean);
  const gained = (sc.gained || []).map((n, seat) => (n ? `${ctx.name(seat)} +${n}` : null)).filter(Boolean);
  const how = sc.kind === "sudden_death"
    ? `sudden death by ${ctx.name(sc.declarer)}`
    : `points ${sc.points.map((p, seat) => (p === null ? null : `${ctx.name(seat)} ${p}`)).filter(Boolean).join(", ")}`;
  return h("p", {class: "note"}, `Phase ${sc.phase} scored: ${how}. Lives lost: ${lost.join(", ") || "none"}${gained.length ? `; gained: ${gained.join(", ")}` : ""}.`);
}

/** What a player may pick for each legal action: a row and as many hand cards, or the knock. */
export function choices(view) {
  return view.legal_actions.map((action) =>
    action.type === "trade" ? exactly(action, [`row:${action.row}`, ...action.cards.map((c) => `hand:${c}`)]) : exactly(action, [action.type]));
}

/** Name a move. */
export function label(action, view) {
  if (action.type === "knock") return view.state.last_round ? "Pass (last round)" : "Knock";
  if (action.type === "trade") {
    const row = view.state.rows[action.row - 1] || [];
    return `take row ${action.row} (${cardWords(row)}), lay down ${cardWords(action.cards)}`;
  }
  return pretty(action.type);
}

/** Name a move with nothing to pick on the table. */
export function looseLabel(key, view) {
  return key === "knock" ? (view.state.last_round ? "Pass (last round)" : "Knock") : pretty(key);
}

/** What to do now. */
export function hint(view) {
  const knock = view.legal_actions.some((a) => a.type === "knock");
  return `Pick a row, then as many cards from your hand to lay down in its place${knock ? (view.state.last_round ? ", or pass" : ", or knock") : ""}.`;
}

/** Where the last move happened. */
export function marks(events) {
  return events.flatMap((e) => (e.type === "RowTraded" ? [`row:${e.data.row}`, `seat:${e.data.seat}`] : e.type === "Knocked" ? [`seat:${e.data.seat}`] : []));
}

/** Describe an event in words. */
export function describe(event, ctx) {
  const d = event.data || {};
  switch (event.type) {
    case "GameSetUp":
      return `${d.players} players, ${d.lives} lives each${d.advanced ? ", advanced variant" : ""}.`;
    case "PhaseDealt":
      return `Phase ${d.phase}: ten cards dealt to each player and four rows laid out.`;
    case "RowTraded":
      return `${ctx.name(d.seat)} took row ${d.row} (${cardWords(d.taken || [])}) and laid down ${cardWords(d.laid || [])}.`;
    case "Knocked":
      return d.opens_last_round ? `${ctx.name(d.seat)} knocked: everyone else has one more turn.` : `${ctx.name(d.seat)} passed.`;
    case "SuddenDeathDeclared":
      return `${ctx.name(d.seat)} holds all the ${(d.species || []).map(many).join(" and ")}: sudden death!`;
    case "PhaseScored":
      return `Phase ${d.phase} scored: ${(d.points || []).map((p, seat) => (p === null ? null : `${ctx.name(seat)} ${p}`)).filter(Boolean).join(", ")} points.`;
    case "LivesLost": {
      const lost = (d.lost || []).map((n, seat) => (n ? `${ctx.name(seat)} −${n}` : null)).filter(Boolean);
      const gained = (d.gained || []).map((n, seat) => (n ? `${ctx.name(seat)} +${n}` : null)).filter(Boolean);
      return `Lives: ${[...lost, ...gained].join(", ") || "nobody loses one"}.`;
    }
    case "PlayerEliminated":
      return `${ctx.name(d.seat)} has no lives left and is out (phase ${d.phase}).`;
    default:
      return null;
  }
}

/** Every seat's score at the end. */
export function scores(view, ctx) {
  const d = view.result.detail || {};
  const lives = d.lives || [];
  return scoreTable(`After ${d.phases ?? "?"} phases`, ["Out in phase", "Lives left"],
    lives.map((n, seat) => ({seat, cells: [d.out_in_phase && d.out_in_phase[seat] !== null ? d.out_in_phase[seat] : "still in", n]})), ctx);
}

/** Why the winner won. */
export function why() {
  return "The last player with lives left wins; players out in the same phase share a place.";
}
