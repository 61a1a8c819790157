// Blöde Kuh at the table: your hand, the piles, the cow cards ("not wanted") each seat holds; the horse pass.
import {backChip, chip, h, pretty} from "../dom.js";

const ORDER = ["sheep", "pig", "horse", "cow"];

function hand(counts) {
  const items = ORDER.filter((sp) => counts[sp]).map((sp) => chip(`${pretty(sp)} ×${counts[sp]}`, sp));
  return h("span", {class: "cards"}, items.length ? items : h("span", {class: "muted"}, "empty"));
}

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.hand_counts === undefined) return h("p", {class: "muted"}, "Waiting for the deal.");
  const parts = [
    h("p", {class: "facts"}, `Round ${s.round}`, ` · dealer ${ctx.name(s.dealer)}`, ` · phase ${s.phase}`),
    h("div", {class: "piles"},
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, "Draw pile"), backChip(String(s.draw_size))),
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, `Discard (${s.discard_size})`),
        s.discard_top ? chip(pretty(s.discard_top), s.discard_top) : h("span", {class: "muted"}, "empty"))),
  ];
  if (s.pending) parts.push(pending(s.pending, ctx));
  parts.push(
    h("ul", {class: "seats"},
      s.hand_counts.map((n, seat) =>
        h("li", {class: ctx.classFor(seat)},
          h("strong", {}, ctx.name(seat)),
          h("span", {class: "stat"}, `${n} cards`),
          h("span", {class: "stat"}, `total ${s.totals[seat]}`),
          s.minus[seat] ? h("span", {class: "stat"}, `minus ${s.minus[seat]}`) : null,
          s.nwi[seat].length
            ? h("div", {}, "Holds: ", h("span", {class: "cards"}, s.nwi[seat].map((c) => chip(`${pretty(c.species)} ${c.value}`, c.species, "nwi"))))
            : null,
        )),
    ),
  );
  if (s.hand) parts.push(h("div", {class: "hand"}, h("h3", {}, "Your hand"), hand(s.hand)));
  if (s.hands) {
    parts.push(h("div", {class: "hand open"}, h("h3", {}, "Every hand"),
      s.hands.map((cs, seat) => h("p", {}, h("strong", {}, `${ctx.name(seat)}: `), hand(cs)))));
  }
  if (s.rounds && s.rounds.length) {
    parts.push(
      h("table", {class: "grid"}, h("caption", {}, "Rounds"),
        h("tr", {}, h("th", {}, "Round"), h("th", {}, "Ended by"), s.hand_counts.map((_, seat) => h("th", {}, ctx.name(seat)))),
        s.rounds.map((r) => h("tr", {}, h("td", {}, r.round), h("td", {}, r.ender === null ? "—" : ctx.name(r.ender)), r.minus.map((m) => h("td", {}, m ? `−${m}` : "0"))))),
    );
  }
  return h("div", {class: "board bk"}, parts);
}

function pending(p, ctx) {
  if (p.choice === "horse") {
    return h("p", {class: "note"}, "Horse! Everyone passes one card to the left neighbour at once. ",
      `Still choosing: ${p.waiting.map((seat) => ctx.name(seat)).join(", ") || "nobody"}.`,
      p.your_card ? ` You chose ${pretty(p.your_card)}.` : "");
  }
  return h("p", {class: "note"}, `Pig! ${p.waiting.map((seat) => ctx.name(seat)).join(", ")} takes a card.`);
}

/** Name an action. */
export function label(action) {
  switch (action.type) {
    case "discard":
      return `Discard a ${pretty(action.card)}`;
    case "discard_pair":
      return `Discard a pair: ${action.cards.map(pretty).join(" + ")}`;
    case "pass":
      if (!action.from) return "Pass";
      return action.from === "draw" ? "Pass: draw from the draw pile" : "Pass: take the top of the discard pile";
    case "take":
      return action.from === "draw" ? "Take a card from the draw pile" : "Take the top of the discard pile";
    case "pass_card":
      return `Pass a ${pretty(action.card)} to your left neighbour`;
    default:
      return pretty(action.type);
  }
}

/** Group actions under a heading. */
export function group(action) {
  if (action.type === "pass_card") return "Horse: choose the card you pass (secret until everyone chose)";
  if (action.type === "take") return "Pig: take a card";
  if (action.type === "pass") return "Pass";
  return "Discard";
}

/** Describe an event for the log (null: the generic text). */
export function describe(event, ctx) {
  const d = event.data;
  if (event.type === "HorseCardChosen") return `${ctx.name(d.seat)} chose a card to pass${d.card ? ` (${pretty(d.card)})` : ""}`;
  if (event.type === "HorseCardsPassed") {
    if (d.gave !== undefined) return `Cards passed left: you gave ${pretty(d.gave)}, you received ${pretty(d.received)}`;
    return "Cards passed to the left";
  }
  return null;
}
