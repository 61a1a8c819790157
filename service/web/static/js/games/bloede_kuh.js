// Blöde Kuh at the table: your hand by species, the piles, the "Nobody wants it" cards (with their values)
// each seat holds. Pick a card once to discard it, twice for a pair, or a pile to pass; then confirm.
import {back, face, fan} from "../cards.js";
import {exactly} from "../choose.js";
import {scoreTable} from "../context.js";
import {h, pretty} from "../dom.js";

const GAME = "bloede-kuh";
const ORDER = ["sheep", "pig", "horse", "cow"];
// What discarding a card does (the rulebook's actions), to say it in the log.
const ACTION_WORDS = {
  sheep: "no action",
  pig: "the left neighbour takes a card",
  horse: "everyone passes a card to the left",
  cow: "they draw a card",
};

function card(species, small = false) {
  return face({game: GAME, species, name: pretty(species), small});
}

function nwiCard(c) {
  return face({game: GAME, species: c.species, name: pretty(c.species), number: c.value, sub: `round ${c.round}`, kind: "nwi", small: true,
    label: `${pretty(c.species)} "Nobody wants it" card of round ${c.round}, ${c.value} points`});
}

const a = (species) => `a ${species}`;
const PLURAL = {sheep: "sheep", pig: "pigs", horse: "horses", cow: "cows"};

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.hand_counts === undefined) return h("p", {class: "muted"}, "Waiting for the deal.");
  const out = [
    h("p", {class: "facts"}, `Round ${s.round} of 3`, ` · dealer ${ctx.name(s.dealer)}`),
    h("div", {class: "piles"},
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, "Draw pile"),
        ctx.pick("pile:draw", back(s.draw_size, "draw pile"), `Draw pile, ${s.draw_size} cards`, "pile")),
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, `Discard pile (${s.discard_size})`),
        ctx.pick("pile:discard", s.discard_top ? card(s.discard_top) : h("span", {class: "card empty"}, "empty"),
          s.discard_top ? `Discard pile, ${s.discard_top} on top` : "Discard pile, empty", "pile")),
      h("div", {class: "pile nwi-holders"}, h("span", {class: "pile-label"}, "Nobody wants it, this round"),
        h("span", {}, ORDER.map((sp) => h("span", {class: "tag"}, `${pretty(sp)}: ${s.nwi_holders[sp] === null ? "in the middle" : ctx.name(s.nwi_holders[sp])}`))))),
  ];
  if (s.pending) out.push(pending(s.pending, ctx));
  out.push(h("ul", {class: "seats"},
    s.hand_counts.map((n, seat) => ctx.spot(`seat:${seat}`, h("li", {class: ctx.classFor(seat)},
      h("strong", {}, ctx.name(seat)),
      h("span", {class: "stat"}, back(n, "cards in hand")),
      h("span", {class: "stat"}, `total ${s.totals[seat]}`),
      s.minus[seat] ? h("span", {class: "stat"}, `minus cards ${s.minus[seat]}`) : null,
      s.nwi[seat].length ? h("div", {class: "ark"}, fan(s.nwi[seat].map(nwiCard))) : null)))));
  if (s.hand) {
    out.push(h("div", {class: "hand", "aria-label": "Your hand"}, h("h3", {}, `Your hand (${ORDER.reduce((t, sp) => t + (s.hand[sp] || 0), 0)})`),
      h("div", {class: "fan"}, ORDER.filter((sp) => s.hand[sp]).map((sp) =>
        ctx.pick(`hand:${sp}`, h("span", {class: "stack"}, card(sp), h("span", {class: "stack-count"}, `×${s.hand[sp]}`)),
          `${pretty(sp)}, ${s.hand[sp]} in hand`, "hand-card")))));
  }
  if (s.hands) {
    out.push(h("div", {class: "hand open"}, h("h3", {}, "Every hand"),
      s.hands.map((cs, seat) => h("p", {}, h("strong", {}, `${ctx.name(seat)}: `), ORDER.filter((sp) => cs[sp]).map((sp) => `${pretty(sp)} ×${cs[sp]}`).join(", ") || "empty"))));
  }
  if (s.rounds && s.rounds.length) out.push(roundsTable(s.rounds, s.hand_counts.length, ctx));
  return h("div", {class: "board bk"}, out);
}

function roundsTable(rounds, seatCount, ctx) {
  return h("div", {class: "scroll-x"}, h("table", {class: "grid"}, h("caption", {}, "Minus points by round"),
    h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Round"), h("th", {scope: "col"}, "Ended by"), Array.from({length: seatCount}, (_, seat) => h("th", {scope: "col"}, ctx.name(seat))))),
    h("tbody", {}, rounds.map((r) => h("tr", {}, h("td", {}, r.round), h("td", {}, r.ender === null ? "—" : ctx.name(r.ender)),
      r.minus.map((m, seat) => h("td", {}, `${r.cards_left[seat]} left${m ? `, −${m}` : ""}`)))))));
}

function pending(p, ctx) {
  if (p.choice === "horse") {
    return h("p", {class: "note"}, "Horse! Everyone with cards passes one to the left neighbour at once. ",
      p.waiting.length ? `Still choosing: ${ctx.names(p.waiting)}.` : "",
      p.your_card ? ` You chose ${a(p.your_card)}.` : "");
  }
  return h("p", {class: "note"}, `Pig! ${ctx.names(p.waiting)} takes a card from the draw pile or the discard pile.`);
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
      return `discard ${a(action.card)} (${ACTION_WORDS[action.card]})`;
    case "discard_pair":
      return `discard a pair of ${PLURAL[action.cards[0]] || action.cards[0]}`;
    case "pass":
      if (!action.from) return "pass";
      return action.from === "draw" ? "pass and draw from the draw pile" : "pass and take the discard pile's top card";
    case "take":
      return action.from === "draw" ? "take a card from the draw pile" : "take the discard pile's top card";
    case "pass_card":
      return `pass ${a(action.card)} to your left neighbour`;
    default:
      return pretty(action.type);
  }
}

/** Name a move with nothing to pick on the table. */
export function looseLabel(key) {
  return key === "pass" ? "Pass (nothing to take)" : pretty(key);
}

/** What to do now. */
export function hint(view) {
  if (view.legal_actions.some((x) => x.type === "pass_card")) return "Horse: pick the card you pass to your left neighbour (secret until everyone chose), then confirm.";
  if (view.legal_actions.some((x) => x.type === "take")) return "Pig: pick the pile to take a card from, then confirm.";
  return "Pick a card in your hand to discard it (twice for a pair), or a pile to pass and take from it; then confirm.";
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
      return `Round ${d.round}: ${ctx.name(d.dealer)} deals nine cards to everyone.`;
    case "CardDiscarded":
      return `${ctx.name(d.seat)} discarded ${a(d.card)}: ${ACTION_WORDS[d.card] || "no action"}.`;
    case "PairDiscarded":
      return `${ctx.name(d.seat)} discarded a pair of ${PLURAL[d.card] || d.card}: the ${d.card} "Nobody wants it" card goes ${d.nwi_from === null || d.nwi_from === undefined ? "" : `from ${ctx.name(d.nwi_from)} `}to ${ctx.name(d.nwi_to)}.`;
    case "Passed":
      return `${ctx.name(d.seat)} passed.`;
    case "CardTaken":
      return `${ctx.name(d.seat)} took ${d.card ? a(d.card) : "a card"} from the ${d.from === "draw" ? "draw pile" : "discard pile"}.`;
    case "ChoiceAwaited":
      return d.choice === "horse" ? `Horse: ${ctx.names(d.seats)} each choose a card to pass left.` : `Pig: ${ctx.names(d.seats)} chooses a pile to take a card from.`;
    case "HorseCardChosen":
      return `${ctx.name(d.seat)} chose a card to pass${d.card ? ` (${a(d.card)})` : ""}.`;
    case "HorseCardsPassed":
      if (d.gave) return `Cards passed left: you gave ${a(d.gave)} and received ${d.received ? a(d.received) : "nothing"}.`;
      return "Everyone passed a card to the left.";
    case "DrawPileRefilled":
      return "The discard pile was shuffled into a new draw pile.";
    case "TurnEnded":
      return "";
    case "RoundScored":
      return `Round ${d.round} over: ${ctx.name(d.ender)} has no cards left. Minus points: ${(d.minus || []).map((m, seat) => `${ctx.name(seat)} ${m}`).join(", ")}.`;
    default:
      return null;
  }
}

/** Every seat's score at the end. */
export function scores(view, ctx) {
  const d = view.result.detail || {};
  const nwi = d.nwi || [];
  return scoreTable("Points (lowest wins)", ["Nobody wants it", "Minus cards", "Total"],
    (d.totals || []).map((total, seat) => ({seat, cells: [
      nwi[seat] && nwi[seat].length ? nwi[seat].map((c) => `${pretty(c.species)} ${c.value}`).join(" + ") : "0",
      (d.minus || [])[seat] ?? 0, total]})), ctx);
}

/** Why the winner won. */
export function why() {
  return "After three rounds the lowest total wins: the Nobody-wants-it cards held plus the minus cards.";
}
