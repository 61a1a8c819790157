// Life is Life at the table: the four tableau rows, your hand, lives; trades grouped by row.
import {backChip, chip, h, pretty, tally} from "../dom.js";

function cards(list) {
  return h("span", {class: "cards"}, list.map((c) => chip(pretty(c), c)));
}

function hand(list) {
  return h("span", {class: "cards"}, tally(list).map(([c, n]) => chip(`${pretty(c)}${n > 1 ? ` ×${n}` : ""}`, c)));
}

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.rows === undefined) return h("p", {class: "muted"}, "Waiting for the deal.");
  const rows = h(
    "ol",
    {class: "rows", "aria-label": "Tableau rows"},
    s.rows.map((row, i) => h("li", {}, h("span", {class: "row-label"}, `Row ${i + 1}`), cards(row))),
  );
  const players = h(
    "ul",
    {class: "seats"},
    Array.from({length: s.players}, (_, seat) =>
      h(
        "li",
        {class: ctx.classFor(seat)},
        h("strong", {}, ctx.name(seat)),
        h("span", {class: "stat"}, `♥ ${s.lives[seat]} ${s.lives[seat] === 1 ? "life" : "lives"}`),
        s.out[seat] ? h("span", {class: "tag"}, "out") : h("span", {class: "stat"}, `${s.hand_counts[seat] ?? 0} cards`),
        s.traded[seat] ? h("span", {class: "tag"}, "traded") : null,
        s.knocked[seat] ? h("span", {class: "tag warn"}, "knocked") : null,
        s.known && s.known[seat] && s.known[seat].length && seat !== view.you
          ? h("span", {class: "known"}, "known: ", cards(s.known[seat]))
          : null,
      ),
    ),
  );
  const parts = [
    h("p", {class: "facts"}, `Phase ${s.phase}`, s.last_round ? " · last round: someone knocked" : "", ` · ${s.set_aside_count} set aside`),
    players,
    rows,
  ];
  if (s.hand) parts.push(h("div", {class: "hand"}, h("h3", {}, "Your hand"), hand(s.hand)));
  if (s.hands) {
    parts.push(
      h("div", {class: "hand open"}, h("h3", {}, "Every hand"),
        s.hands.map((cs, seat) => h("p", {}, h("strong", {}, `${ctx.name(seat)}: `), hand(cs)))),
    );
  }
  if (s.sudden_death) parts.push(h("p", {class: "note"}, `Sudden death by ${ctx.name(s.sudden_death.seat)}: all ${s.sudden_death.species.join(", ")}`));
  if (s.last_scoring) parts.push(scoring(s.last_scoring, ctx));
  return h("div", {class: "board lil"}, parts);
}

function scoring(sc, ctx) {
  const lost = sc.lost.map((n, seat) => (n ? `${ctx.name(seat)} −${n}` : null)).filter(Boolean);
  const text = sc.kind === "sudden_death" ? `sudden death by ${ctx.name(sc.declarer)}` : `points ${sc.points.map((p) => p ?? "—").join(" / ")}`;
  return h("p", {class: "note"}, `Phase ${sc.phase} scored: ${text}; lives lost: ${lost.join(", ") || "none"}`);
}

/** Name an action. */
export function label(action, view) {
  if (action.type === "knock") return view.state.last_round ? "Pass (last round)" : "Knock";
  if (action.type === "trade") {
    const row = view.state.rows[action.row - 1] || [];
    return `Lay down ${action.cards.map(pretty).join(", ")} · take ${row.map(pretty).join(", ")}`;
  }
  return pretty(action.type);
}

/** Group actions under a heading. */
export function group(action) {
  return action.type === "trade" ? `Trade for row ${action.row}` : "Knock";
}

/** Describe an event for the log (null: the generic text). */
export function describe(event, ctx) {
  const d = event.data;
  if (event.type === "RowTraded") {
    const taken = (d.taken || []).map(pretty).join(", ");
    return `${ctx.actor(event)} took row ${d.row} (${taken}) and laid down ${(d.laid || []).map(pretty).join(", ")}`;
  }
  return null;
}
