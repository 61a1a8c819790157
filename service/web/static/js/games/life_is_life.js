// Life is Life at the table: four rows to trade for, your hand by species, lives; pick a row and as many
// hand cards, then confirm. Each card shows its value, read from the view (`state.values`).
import {back, face, fan} from "../cards.js";
import {exactly} from "../choose.js";
import {scoreTable, sentenceList} from "../context.js";
import {h, pretty, tally} from "../dom.js";
import {animal, cap, t} from "../i18n.js";

const GAME = "life-is-life";

function card(s, name, small = false) {
  return face({game: GAME, species: name, name: cap(animal(GAME, name)), number: s.values ? s.values[name] : null, small});
}

const many = (name) => animal(GAME, name, {n: 2});
const plural = (name, n) => t("count", {n, what: animal(GAME, name, {n})});
const cardWords = (list) => sentenceList(tally(list).map(([name, n]) => plural(name, n)));
const cardName = (name) => cap(animal(GAME, name));

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.rows === undefined) return h("p", {class: "muted"}, t("board.deal"));
  const rows = h("ol", {class: "rows", "aria-label": t("lil.rows")},
    s.rows.map((row, i) => h("li", {},
      ctx.pick(`row:${i + 1}`, h("span", {class: "row-pick"}, h("span", {class: "row-label"}, t("lil.row", {number: i + 1})), fan(row.map((c) => card(s, c)))),
        t("lil.row.label", {number: i + 1, cards: row.map((c) => `${cardName(c)} ${s.values[c]}`).join(", ")}), "row"))));
  const players = h("ul", {class: "seats"},
    Array.from({length: s.players}, (_, seat) => ctx.spot(`seat:${seat}`, h("li", {class: ctx.classFor(seat)},
      h("strong", {}, ctx.name(seat)),
      h("span", {class: "stat lives", "aria-label": t("lil.lives", {n: s.lives[seat]})}, `${"♥".repeat(Math.min(s.lives[seat], 9))} ${s.lives[seat]}`),
      s.out[seat] ? h("span", {class: "tag"}, t("lil.out")) : h("span", {class: "stat"}, back(s.hand_counts[seat] ?? 0, t("card.in-hand"))),
      s.traded[seat] ? h("span", {class: "tag"}, t("lil.traded")) : null,
      s.knocked[seat] ? h("span", {class: "tag warn"}, t("lil.knocked")) : null,
      s.known && s.known[seat] && s.known[seat].length && seat !== view.you
        ? h("span", {class: "known"}, t("lil.known"), " ", fan(s.known[seat].map((c) => card(s, c, true))))
        : null))));
  const parts = [
    h("p", {class: "facts"}, [t("lil.phase", {phase: s.phase}), s.last_round ? t("lil.last-round") : null, t("lil.set-aside", {n: s.set_aside_count}), s.advanced ? t("lil.advanced") : null].filter(Boolean).join(" · ")),
    rows,
  ];
  // Your hand straight under the rows: a trade is a row and hand cards, picked together in one view.
  if (s.hand) {
    parts.push(h("div", {class: "hand", "data-pick-from": "", "aria-label": t("hand.label")}, h("h3", {}, t("hand.title", {n: s.hand.length})),
      h("div", {class: "fan"}, tally(s.hand).map(([c, n]) =>
        ctx.pick(`hand:${c}`, h("span", {class: "stack"}, card(s, c), n > 1 ? h("span", {class: "stack-count"}, `×${n}`) : null),
          t("lil.hand-card", {name: cardName(c), value: s.values[c], n}), "hand-card")))));
  }
  parts.push(players);
  if (s.hands) {
    parts.push(h("div", {class: "hand open"}, h("h3", {}, t("hand.every")),
      s.hands.map((cs, seat) => h("p", {}, h("strong", {}, `${ctx.name(seat)}: `), fan(cs.map((c) => card(s, c, true)))))));
  }
  if (s.sudden_death) parts.push(h("p", {class: "note"}, t("lil.sudden-death", {name: ctx.name(s.sudden_death.seat), what: sentenceList(s.sudden_death.species.map(many))})));
  if (s.last_scoring) parts.push(scoring(s.last_scoring, ctx));
  return h("div", {class: "board lil"}, parts);
}

function scoring(sc, ctx) {
  const lost = sc.lost.map((n, seat) => (n ? `${ctx.name(seat)} −${n}` : null)).filter(Boolean);
  const gained = (sc.gained || []).map((n, seat) => (n ? `${ctx.name(seat)} +${n}` : null)).filter(Boolean);
  const how = sc.kind === "sudden_death"
    ? t("lil.scored.sudden", {name: ctx.name(sc.declarer)})
    : t("lil.scored.points", {points: sc.points.map((p, seat) => (p === null ? null : `${ctx.name(seat)} ${p}`)).filter(Boolean).join(", ")});
  return h("p", {class: "note"}, t(gained.length ? "lil.scored.gained" : "lil.scored", {phase: sc.phase, how, lost: lost.join(", ") || t("lil.none"), gained: gained.join(", ")}));
}

/** What a player may pick for each legal action: a row and as many hand cards, or the knock. */
export function choices(view) {
  return view.legal_actions.map((action) =>
    action.type === "trade" ? exactly(action, [`row:${action.row}`, ...action.cards.map((c) => `hand:${c}`)]) : exactly(action, [action.type]));
}

/** Name a move. */
export function label(action, view) {
  if (action.type === "knock") return view.state.last_round ? t("lil.pass") : t("lil.knock");
  if (action.type === "trade") {
    const row = view.state.rows[action.row - 1] || [];
    return t("lil.trade", {row: action.row, taken: cardWords(row), laid: cardWords(action.cards)});
  }
  return pretty(action.type);
}

/** Name a move with nothing to pick on the table. */
export function looseLabel(key, view) {
  return key === "knock" ? (view.state.last_round ? t("lil.pass") : t("lil.knock")) : pretty(key);
}

/** What to do now. */
export function hint(view) {
  const knock = view.legal_actions.some((a) => a.type === "knock");
  return t(knock ? (view.state.last_round ? "lil.hint.pass" : "lil.hint.knock") : "lil.hint");
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
      return t(d.advanced ? "lil.log.setup.advanced" : "lil.log.setup", {n: d.players, lives: d.lives});
    case "PhaseDealt":
      return t("lil.log.dealt", {phase: d.phase});
    case "RowTraded":
      return t("lil.log.traded", {name: ctx.name(d.seat), row: d.row, taken: cardWords(d.taken || []), laid: cardWords(d.laid || [])});
    case "Knocked":
      return t(d.opens_last_round ? "lil.log.knocked" : "lil.log.passed", {name: ctx.name(d.seat)});
    case "SuddenDeathDeclared":
      return t("lil.log.sudden", {name: ctx.name(d.seat), what: sentenceList((d.species || []).map(many))});
    case "PhaseScored":
      return t("lil.log.scored", {phase: d.phase, points: (d.points || []).map((p, seat) => (p === null ? null : `${ctx.name(seat)} ${p}`)).filter(Boolean).join(", ")});
    case "LivesLost": {
      const lost = (d.lost || []).map((n, seat) => (n ? `${ctx.name(seat)} −${n}` : null)).filter(Boolean);
      const gained = (d.gained || []).map((n, seat) => (n ? `${ctx.name(seat)} +${n}` : null)).filter(Boolean);
      return t("lil.log.lives", {lives: [...lost, ...gained].join(", ") || t("lil.log.no-loss")});
    }
    case "PlayerEliminated":
      return t("lil.log.out", {name: ctx.name(d.seat), phase: d.phase});
    default:
      return null;
  }
}

/** Every seat's score at the end. */
export function scores(view, ctx) {
  const d = view.result.detail || {};
  const lives = d.lives || [];
  return scoreTable(t("lil.after", {n: d.phases ?? 0}), [t("lil.col.out"), t("lil.col.lives")],
    lives.map((n, seat) => ({seat, cells: [d.out_in_phase && d.out_in_phase[seat] !== null ? d.out_in_phase[seat] : t("lil.still-in"), n]})), ctx);
}

/** Why the winner won. */
export function why() {
  return t("lil.why");
}
