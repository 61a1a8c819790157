// Blöde Kuh at the table: your hand by species, the piles, the "Nobody wants it" cards (with their values)
// each seat holds. Pick a card once to discard it, twice for a pair, or a pile to pass; then confirm.
import {back, face, fan} from "../cards.js";
import {exactly} from "../choose.js";
import {scoreTable} from "../context.js";
import {h, pretty} from "../dom.js";
import {animal, cap, t} from "../i18n.js";

const GAME = "bloede-kuh";
const ORDER = ["sheep", "pig", "horse", "cow"];
// What discarding a card does (the rulebook's actions), to say it in the log.
const actionWords = (species) => t(`bk.action.${species}`);
const cardName = (species) => cap(animal(GAME, species));

function card(species, small = false) {
  return face({game: GAME, species, name: cardName(species), small});
}

function nwiCard(c) {
  return face({game: GAME, species: c.species, name: cardName(c.species), number: c.value, sub: t("bk.round.short", {round: c.round}), kind: "nwi", small: true,
    label: t("bk.nwi.label", {name: cardName(c.species), round: c.round, n: c.value})});
}

const a = (species) => animal(GAME, species, {form: "a"});
const many = (species) => animal(GAME, species, {n: 2});

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.hand_counts === undefined) return h("p", {class: "muted"}, t("board.deal"));
  const out = [
    h("p", {class: "facts"}, t("bk.round-of", {round: s.round}), ` · ${t("bk.dealer", {name: ctx.name(s.dealer)})}`),
    h("div", {class: "piles"},
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, t("bk.draw-pile")),
        ctx.pick("pile:draw", back(s.draw_size, t("bk.draw-pile.short")), t("bk.draw-pile.label", {n: s.draw_size}), "pile")),
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, t("bk.discard-pile.count", {n: s.discard_size})),
        ctx.pick("pile:discard", s.discard_top ? card(s.discard_top) : h("span", {class: "card empty"}, t("card.empty")),
          s.discard_top ? t("bk.discard-pile.top", {name: cardName(s.discard_top)}) : t("bk.discard-pile.empty"), "pile")),
      h("div", {class: "pile nwi-holders"}, h("span", {class: "pile-label"}, t("bk.nwi.this-round")),
        h("span", {}, ORDER.map((sp) => [h("span", {class: "tag"}, `${cardName(sp)}: ${s.nwi_holders[sp] === null ? t("bk.nwi.middle") : ctx.name(s.nwi_holders[sp])}`), " "])))),
  ];
  if (s.pending) out.push(pending(s.pending, ctx));
  out.push(h("ul", {class: "seats"},
    s.hand_counts.map((n, seat) => ctx.spot(`seat:${seat}`, h("li", {class: ctx.classFor(seat)},
      h("strong", {}, ctx.name(seat)),
      h("span", {class: "stat"}, back(n, t("card.in-hand"))),
      h("span", {class: "stat"}, t("bk.total", {n: s.totals[seat]})),
      s.minus[seat] ? h("span", {class: "stat"}, t("bk.minus", {n: s.minus[seat]})) : null,
      s.nwi[seat].length ? h("div", {class: "ark"}, fan(s.nwi[seat].map(nwiCard))) : null)))));
  if (s.hand) {
    out.push(h("div", {class: "hand", "data-pick-from": "", "aria-label": t("hand.label")}, h("h3", {}, t("hand.title", {n: ORDER.reduce((sum, sp) => sum + (s.hand[sp] || 0), 0)})),
      h("div", {class: "fan"}, ORDER.filter((sp) => s.hand[sp]).map((sp) =>
        ctx.pick(`hand:${sp}`, h("span", {class: "stack"}, card(sp), s.hand[sp] > 1 ? h("span", {class: "stack-count"}, `×${s.hand[sp]}`) : null),
          t("bk.hand-card", {name: cardName(sp), n: s.hand[sp]}), "hand-card")))));
  }
  if (s.hands) {
    out.push(h("div", {class: "hand open"}, h("h3", {}, t("hand.every")),
      s.hands.map((cs, seat) => h("p", {}, h("strong", {}, `${ctx.name(seat)}: `), ORDER.filter((sp) => cs[sp]).map((sp) => (cs[sp] > 1 ? `${cardName(sp)} ×${cs[sp]}` : cardName(sp))).join(", ") || t("card.empty")))));
  }
  if (s.rounds && s.rounds.length) out.push(roundsTable(s.rounds, s.hand_counts.length, ctx));
  return h("div", {class: "board bk"}, out);
}

function roundsTable(rounds, seatCount, ctx) {
  return h("div", {class: "scroll-x"}, h("table", {class: "grid"}, h("caption", {}, t("bk.rounds.caption")),
    h("thead", {}, h("tr", {}, h("th", {scope: "col"}, t("bk.rounds.round")), h("th", {scope: "col"}, t("bk.rounds.ender")), Array.from({length: seatCount}, (_, seat) => h("th", {scope: "col"}, ctx.name(seat))))),
    h("tbody", {}, rounds.map((r) => h("tr", {}, h("td", {}, r.round), h("td", {}, r.ender === null ? "—" : ctx.name(r.ender)),
      r.minus.map((m, seat) => h("td", {}, m ? t("bk.rounds.left.minus", {n: r.cards_left[seat], minus: m}) : t("bk.rounds.left", {n: r.cards_left[seat]}))))))));
}

function pending(p, ctx) {
  if (p.choice === "horse") {
    return h("p", {class: "note"}, t("bk.horse"),
      p.waiting.length ? ` ${t("bk.horse.waiting", {names: ctx.names(p.waiting)})}` : "",
      p.your_card ? ` ${t("bk.horse.yours", {card: a(p.your_card)})}` : "");
  }
  return h("p", {class: "note"}, t("bk.pig", {names: ctx.names(p.waiting), n: p.waiting.length}));
}

/** What a player may pick for each legal action. */
export function choices(view) {
  return view.legal_actions.map((action) => {
    switch (action.type) {
      case "discard":
      case "pass_card":
        return exactly(action, [`hand:${action.card}`]);
      case "discard_pair":
        return exactly(action, action.cards.map((c) => `hand:${c}`));
      case "pass":
      case "take":
        return exactly(action, action.from ? [`pile:${action.from}`] : ["pass"]);
      default:
        return exactly(action, [action.type]);
    }
  });
}

/** Name a move. */
export function label(action) {
  switch (action.type) {
    case "discard":
      return t("bk.discard", {card: a(action.card), action: actionWords(action.card)});
    case "discard_pair":
      return t("bk.discard-pair", {cards: many(action.cards[0])});
    case "pass":
      if (!action.from) return t("bk.pass");
      return action.from === "draw" ? t("bk.pass.draw") : t("bk.pass.discard");
    case "take":
      return action.from === "draw" ? t("bk.take.draw") : t("bk.take.discard");
    case "pass_card":
      return t("bk.pass-card", {card: a(action.card)});
    default:
      return pretty(action.type);
  }
}

/** Name a move with nothing to pick on the table. */
export function looseLabel(key) {
  return key === "pass" ? t("bk.pass.nothing") : pretty(key);
}

/** What to do now. */
export function hint(view) {
  if (view.legal_actions.some((x) => x.type === "pass_card")) return t("bk.hint.horse");
  if (view.legal_actions.some((x) => x.type === "take")) return t("bk.hint.pig");
  return t("bk.hint");
}

/** Where the last move happened. */
export function marks(events) {
  return events.flatMap((e) => {
    if (e.type === "CardDiscarded" || e.type === "PairDiscarded") return ["pile:discard", `seat:${e.data.seat}`];
    if (e.type === "CardTaken") return [`pile:${e.data.from}`, `seat:${e.data.seat}`];
    return [];
  });
}

/** Describe an event in words ("" for one that says nothing new, such as a turn's end). */
export function describe(event, ctx) {
  const d = event.data || {};
  switch (event.type) {
    case "CardsDealt":
      return t("bk.log.dealt", {round: d.round, name: ctx.name(d.dealer)});
    case "CardDiscarded":
      return t("bk.log.discarded", {name: ctx.name(d.seat), card: a(d.card), action: actionWords(d.card)});
    case "PairDiscarded": {
      const params = {name: ctx.name(d.seat), cards: many(d.card), nwi: cardName(d.card), to: ctx.name(d.nwi_to)};
      if (d.nwi_from === null || d.nwi_from === undefined) return t("bk.log.pair", params);
      return t("bk.log.pair.from", {...params, from: ctx.name(d.nwi_from)});
    }
    case "Passed":
      return t("bk.log.passed", {name: ctx.name(d.seat)});
    case "CardTaken":
      return t(d.from === "draw" ? "bk.log.taken.draw" : "bk.log.taken.discard", {name: ctx.name(d.seat), card: d.card ? a(d.card) : t("bk.a-card")});
    case "ChoiceAwaited":
      return d.choice === "horse" ? t("bk.log.horse", {names: ctx.names(d.seats)}) : t("bk.log.pig", {names: ctx.names(d.seats), n: (d.seats || []).length});
    case "HorseCardChosen":
      return d.card ? t("bk.log.chosen.card", {name: ctx.name(d.seat), card: a(d.card)}) : t("bk.log.chosen", {name: ctx.name(d.seat)});
    case "HorseCardsPassed":
      if (d.gave) return t("bk.log.passed-left.you", {gave: a(d.gave), received: d.received ? a(d.received) : t("bk.nothing")});
      return t("bk.log.passed-left");
    case "DrawPileRefilled":
      return t("bk.log.refilled");
    case "TurnEnded":
      return "";
    case "RoundScored":
      return t("bk.log.scored", {round: d.round, name: ctx.name(d.ender), minus: (d.minus || []).map((m, seat) => `${ctx.name(seat)} ${m}`).join(", ")});
    default:
      return null;
  }
}

/** Every seat's score at the end. */
export function scores(view, ctx) {
  const d = view.result.detail || {};
  const nwi = d.nwi || [];
  return scoreTable(t("bk.scores"), [t("bk.col.nwi"), t("bk.col.minus"), t("bk.col.total")],
    (d.totals || []).map((total, seat) => ({seat, cells: [
      // A card's name keeps its value on its line, and a "+" the card before it (no-break spaces).
      nwi[seat] && nwi[seat].length ? nwi[seat].map((c) => `${cardName(c.species)}\u00a0${c.value}`).join("\u00a0+ ") : "0",
      (d.minus || [])[seat] ?? 0, total]})), ctx);
}

/** Why the winner won. */
export function why() {
  return t("bk.why");
}
