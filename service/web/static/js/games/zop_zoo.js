// Zop Zoo at the table: every player's row of stacks, the discard pile, the black deck. Pick the deck or
// the discard pile, a stack for a wild card, or cards and players for a specialty; then confirm.
import {back, face, fan} from "../cards.js";
import {exactly, inTurn} from "../choose.js";
import {scoreTable} from "../context.js";
import {h, pretty} from "../dom.js";

const GAME = "zop-zoo";
const KIND_WORDS = {lower: "lower half", upper: "upper half", minus: "minus", anti_minus: "ANTI-minus", wild: "wild card",
  mole: "MOLE", side_bonus: "side bonus", hyena: "specialty", raccoon: "specialty", earthworm: "specialty"};

function card(c, small = false) {
  if (!c) return h("span", {class: "card empty"}, "empty");
  const sub = [c.category, KIND_WORDS[c.kind]].filter(Boolean).join(" · ");
  const points = ["mole", "hyena", "raccoon", "earthworm"].includes(c.kind) ? null : c.value;
  return face({game: GAME, species: c.category, name: c.animal || c.name, number: points, sub, small,
    kind: `k-${c.kind} d-${c.deck}`, label: `${c.name}${sub ? `, ${sub}` : ""}${points === null ? "" : `, ${points} points`}`});
}

/** Every card the view shows, by id, so the log says "Hippo" for "w:hippo". */
function cardIndex(s) {
  const index = new Map();
  const add = (c) => c && index.set(c.id, c);
  for (const p of s.players || []) {
    for (const st of p.row) {
      add(st.base);
      add(st.cover);
    }
    (p.bonuses || []).forEach(add);
  }
  (s.discard_pile || []).forEach(add);
  if (s.pending) add(s.pending.card);
  return index;
}

function namer(s) {
  const index = cardIndex(s || {});
  return (id) => (index.get(id) ? index.get(id).name : pretty(id));
}

function stack(st, ctx, owner) {
  const worth = st.worth === null ? "not scoring yet" : `worth ${st.worth}`;
  const content = h("span", {class: `zstack ${st.cover ? "covered" : ""}`}, card(st.base), st.cover ? card(st.cover) : null,
    h("span", {class: "worth"}, worth));
  const name = `${ctx.name(owner)}'s ${st.base.name}${st.cover ? `, covered by ${st.cover.name}` : ""}, ${worth}`;
  return h("li", {}, ctx.pick(`card:${st.base.id}`, content, name, "stack"));
}

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.players === undefined) return h("p", {class: "muted"}, "Waiting for the deal.");
  const top = s.discard_pile.length ? s.discard_pile[s.discard_pile.length - 1] : null;
  const out = [
    h("p", {class: "facts"}, `Round ${s.round}`, ` · target ${s.target} points`),
    h("div", {class: "piles"},
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, "Black deck"),
        ctx.pick("pile:deck", back(s.black_deck_size, "black deck"), `Black deck, ${s.black_deck_size} cards`, "pile")),
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, `Discard pile (${s.discard_pile.length})`),
        ctx.pick("pile:discard", card(top), top ? `Discard pile, ${top.name} on top` : "Discard pile, empty", "pile"))),
  ];
  if (s.pending && s.pending.card) {
    const from = s.pending.source === "deck" ? " drawn from the black deck" : s.pending.source === "discard" ? " from the top of the discard pile" : "";
    out.push(h("p", {class: "note"}, `${ctx.name(s.pending.seat)} holds `, s.pending.card ? card(s.pending.card, true) : "a card",
      `${from}: ${pendingWords(s.pending.decision)}.`));
  }
  out.push(h("div", {class: "zoo-rows"},
    s.players.map((p) => ctx.spot(`seat:${p.seat}`, h("section", {class: `zoo-row ${ctx.classFor(p.seat)}`, "aria-label": `${ctx.name(p.seat)}'s row`},
      h("h3", {}, ctx.pick(`seat:${p.seat}`, h("span", {}, ctx.name(p.seat)), `Give to ${ctx.name(p.seat)}`, "seat-pick"),
        h("span", {class: "stat"}, `total ${p.total}`),
        h("span", {class: "stat"}, `this round: ${p.round_points.as_winner} if they win it, ${p.round_points.as_other} if not`)),
      h("ol", {class: "stacks"}, p.row.map((st) => stack(st, ctx, p.seat))),
      p.bonuses.length ? h("div", {class: "bonuses"}, "Side bonuses: ",
        fan(p.bonuses.map((c) => ctx.pick(`card:${c.id}`, card(c, true), `${ctx.name(p.seat)}'s ${c.name}, ${c.value} points`, "stack")))) : null)))));
  if (s.results && s.results.length && !view.result) out.push(roundsTable(s.results, s.players.length, ctx));
  return h("div", {class: "board zz"}, out);
}

function pendingWords(decision) {
  return {wild: "place the wild card", mole: "use the MOLE or discard it", hyena: "give a card away (HYENA)",
    raccoon: "take a card (RACCOON)", earthworm: "swap two cards (EARTHWORM)"}[decision] || pretty(decision).toLowerCase();
}

function roundsTable(results, seatCount, ctx) {
  return scoreTable("Rounds", [...results.map((r) => `Round ${r.round}`), "Total"],
    Array.from({length: seatCount}, (_, seat) => ({seat, cells: [...results.map((r) => `${r.scores[seat]}${r.winner === seat ? " ★" : ""}`),
      results.reduce((t, r) => t + r.scores[seat], 0)]})), ctx);
}

/** What a player may pick for each legal action. */
export function choices(view) {
  return view.legal_actions.map((action) => {
    switch (action.type) {
      case "draw":
        return exactly(action, ["pile:deck"]);
      case "take_discard":
        return exactly(action, ["pile:discard"]);
      case "place_wild":
      case "take_card":
        return exactly(action, [`card:${action.card}`]);
      case "give":
        return inTurn(action, [`card:${action.card}`, `seat:${action.to}`]);
      case "swap":
        return inTurn(action, [`card:${action.card}`, `card:${action.for}`]);
      default:
        return exactly(action, [action.type]);
    }
  });
}

/** Name a move. */
export function label(action, view, ctx) {
  const name = namer(view.state);
  switch (action.type) {
    case "draw":
      return "draw from the black deck";
    case "take_discard":
      return "take the discard pile's top card";
    case "place_wild":
      return `cover ${name(action.card)} with the wild card`;
    case "use_mole":
      return "use the MOLE: dig the discard pile";
    case "decline_mole":
      return "discard the MOLE unused";
    case "give":
      return `HYENA: give ${name(action.card)} to ${ctx.name(action.to)}`;
    case "take_card":
      return `RACCOON: take ${name(action.card)} from ${ctx.name(action.from)}`;
    case "swap":
      return `EARTHWORM: swap your ${name(action.card)} for ${ctx.name(action.with)}'s ${name(action.for)}`;
    default:
      return pretty(action.type);
  }
}

/** Name a move with nothing to pick on the table. */
export function looseLabel(key) {
  return {use_mole: "Use the MOLE", decline_mole: "Discard the MOLE unused"}[key] || pretty(key);
}

/** What to do now. */
export function hint(view) {
  const types = new Set(view.legal_actions.map((x) => x.type));
  if (types.has("place_wild")) return "Pick the stack of yours the wild card covers, then confirm.";
  if (types.has("give")) return "HYENA: pick one of your cards and the player who gets it, then confirm.";
  if (types.has("take_card")) return "RACCOON: pick the card you take, then confirm.";
  if (types.has("swap")) return "EARTHWORM: pick one of your cards and the card you swap it for, then confirm.";
  if (types.has("use_mole")) return "MOLE: use it or discard it, then confirm.";
  return "Pick the black deck or the discard pile, then confirm.";
}

/** Where the last move happened. */
export function marks(events) {
  return events.flatMap((e) => {
    const d = e.data || {};
    if (["CardMatched", "WildPlaced", "DiscardTaken"].includes(e.type) && d.onto) return [`card:${d.onto}`, `seat:${d.seat}`];
    if (e.type === "CardDiscarded") return ["pile:discard"];
    if (e.type === "SideBonusTaken") return [`card:${d.card}`];
    if (e.type === "SpecialtyUsed") return (d.moves || []).map((m) => `card:${m.card}`);
    return [];
  });
}

/** Describe an event in words ("" for one that says nothing new). */
export function describe(event, ctx) {
  const d = event.data || {};
  const name = namer(ctx.view && ctx.view.state);
  switch (event.type) {
    case "ZooSetUp":
      return "The zoo is set up: the white and black decks are shuffled.";
    case "RoundDealt":
      return `Round ${d.round ?? ""}: six white cards dealt face up to each player's row.`.replace("Round : ", "New round: ");
    case "CardDrawn":
      return `${ctx.name(d.seat)} drew ${name(d.card)}.`;
    case "BlackDeckRefilled":
      return "The discard pile, but its top card, was shuffled into a new black deck.";
    case "CardMatched":
      return `${ctx.name(d.seat)} matched ${name(d.card)} onto ${name(d.onto)}.`;
    case "WildPlaced":
      return `${ctx.name(d.seat)} covered ${name(d.onto)} with ${name(d.card)}.`;
    case "SideBonusTaken":
      return `${ctx.name(d.seat)} took the ${name(d.card)}.`;
    case "CardDiscarded":
      return `${ctx.name(d.seat)} discarded ${name(d.card)}.`;
    case "TurnEnded":
      return "";
    case "DiscardTaken":
      return `${ctx.name(d.seat)} took ${name(d.card)} from the discard pile${d.onto ? ` onto ${name(d.onto)}` : ""}.`;
    case "DiscardPileDug": {
      const found = (d.taken || []).map((t) => name(t.card || t.id || "")).filter(Boolean);
      return `${ctx.name(d.seat)}'s MOLE dug the discard pile: ${found.length ? `found ${found.join(", ")}` : "found nothing"}.`;
    }
    case "SpecialtyUsed": {
      const moves = (d.moves || []).map((m) => `${name(m.card)} from ${ctx.name(m.from)} to ${ctx.name(m.to)}`);
      return `${ctx.name(d.seat)} used the ${name(d.specialty)}: ${moves.join("; ") || "nothing moved"}.`;
    }
    case "RoundWon":
      return `${ctx.name(d.winner)} won round ${d.round}: ${(d.scores || []).map((x, seat) => `${ctx.name(seat)} ${x}`).join(", ")} (totals ${(d.totals || []).join(", ")}).`;
    default:
      return null;
  }
}

/** Every seat's score at the end. */
export function scores(view, ctx) {
  const d = view.result.detail || {};
  return roundsTable(d.rounds || [], (d.totals || []).length, ctx);
}

/** Why the winner won. */
export function why(view) {
  const d = view.result.detail || {};
  return `The game ends after the round in which someone reaches ${d.target} points; the highest total wins.`;
}
