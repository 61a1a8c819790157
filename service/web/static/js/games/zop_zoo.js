// Zop Zoo at the table: every player's row of six stacks, the discard pile, the deck size, the decision in hand.
import {backChip, chip, h, pretty} from "../dom.js";

function card(c, extra = "") {
  const value = c.value === null || c.value === undefined ? "" : ` ${c.value}`;
  return chip(`${c.name}${value}`, c.category || c.animal || c.kind, `${extra} kind-${c.kind}`);
}

function stack(st) {
  return h("li", {class: "stack"},
    card(st.base),
    st.cover ? h("span", {class: "cover"}, "covered by ", card(st.cover)) : null,
    h("span", {class: "worth"}, st.worth === null ? "not scoring yet" : `worth ${st.worth}`));
}

/** Every card the view names, by id, so that actions can say "Hippo" instead of "w:hippo". */
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

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.players === undefined) return h("p", {class: "muted"}, "Waiting for the deal.");
  const top = s.discard_pile.length ? s.discard_pile[s.discard_pile.length - 1] : null;
  const parts = [
    h("p", {class: "facts"}, `Round ${s.round}`, ` · target ${s.target}`, ` · phase ${s.phase}`),
    h("div", {class: "piles"},
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, "Black deck"), backChip(String(s.black_deck_size))),
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, `Discard (${s.discard_pile.length})`), top ? card(top) : h("span", {class: "muted"}, "empty"))),
  ];
  if (s.pending) {
    parts.push(h("p", {class: "note"}, `${ctx.name(s.pending.seat)} holds `, s.pending.card ? card(s.pending.card) : "a card",
      ` from the ${s.pending.source}: ${pretty(s.pending.decision)}.`));
  }
  parts.push(
    h("div", {class: "zoo-rows"},
      s.players.map((p) =>
        h("section", {class: `zoo-row ${ctx.classFor(p.seat)}`, "aria-label": `${ctx.name(p.seat)}'s row`},
          h("h3", {}, ctx.name(p.seat), h("span", {class: "stat"}, `total ${p.total}`),
            h("span", {class: "stat"}, `this round: ${p.round_points.as_winner} if winner, ${p.round_points.as_other} otherwise`)),
          h("ol", {class: "stacks"}, p.row.map(stack)),
          p.bonuses.length ? h("p", {}, "Side bonuses: ", h("span", {class: "cards"}, p.bonuses.map((c) => card(c)))) : null)),
    ),
  );
  if (s.results && s.results.length) {
    parts.push(
      h("table", {class: "grid"}, h("caption", {}, "Rounds"),
        h("tr", {}, h("th", {}, "Round"), h("th", {}, "Winner"), s.players.map((p) => h("th", {}, ctx.name(p.seat)))),
        s.results.map((r) => h("tr", {}, h("td", {}, r.round), h("td", {}, r.winner === null ? "—" : ctx.name(r.winner)), r.scores.map((x) => h("td", {}, x))))),
    );
  }
  return h("div", {class: "board zz"}, parts);
}

/** Name an action. */
export function label(action, view, ctx) {
  const index = cardIndex(view.state);
  const name = (id) => (index.get(id) ? index.get(id).name : pretty(id));
  switch (action.type) {
    case "draw":
      return "Draw from the black deck";
    case "take_discard":
      return "Take the discard pile's top card";
    case "place_wild":
      return `Cover ${name(action.card)} with the wild card`;
    case "use_mole":
      return "Use the MOLE: dig the discard pile";
    case "decline_mole":
      return "Discard the MOLE unused";
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

/** Group actions under a heading. */
export function group(action) {
  if (action.type === "place_wild") return "Place the wild card";
  if (["give", "take_card", "swap"].includes(action.type)) return "Specialty card";
  if (action.type.includes("mole")) return "MOLE";
  return "Your move";
}

/** Describe an event for the log (null: the generic text). */
export function describe() {
  return null;
}
