// Zop Zoo at the table: every player's row of stacks, the discard pile, the black deck. Pick the deck or
// the discard pile, a stack for a wild card, or cards and players for a specialty; then confirm.
import {back, face, fan} from "../cards.js";
import {exactly, inTurn} from "../choose.js";
import {scoreTable} from "../context.js";
import {h, pretty} from "../dom.js";
import {has, t} from "../i18n.js";

const GAME = "zop-zoo";
const kindWords = (kind) => (kind === "category" ? null : t(`zz.kind.${kind}`));
// A card set of a game's own may hold animals and categories the tables do not know: they keep their names.
const beast = (name) => (has(`zz.animal.${name}`) ? t(`zz.animal.${name}`) : name);
const category = (name) => (has(`zz.cat.${name}`) ? t(`zz.cat.${name}`) : name);

/** A card's name in the page's language, made as the server makes it (cards.py, _label). */
function cardName(c) {
  if (c.kind === "category" && c.animal) return beast(c.animal);
  if (c.kind === "side_bonus" && c.category) return t("zz.side-bonus", {category: category(c.category)});
  if (c.animal) return t("zz.half", {animal: beast(c.animal), kind: kindWords(c.kind)});
  return has(`zz.name.${c.name}`) ? t(`zz.name.${c.name}`) : c.name;
}

function card(c, small = false) {
  if (!c) return h("span", {class: "card empty"}, t("card.empty"));
  // A side bonus's name says its category and kind already ("Insect side bonus"): no second line repeats them.
  const sub = c.kind === "side_bonus" ? "" : [c.category ? category(c.category) : null, kindWords(c.kind)].filter(Boolean).join(" · ");
  const points = ["mole", "hyena", "raccoon", "earthworm"].includes(c.kind) ? null : c.value;
  const name = cardName(c);
  return face({game: GAME, species: c.category, name: c.animal ? beast(c.animal) : name, number: points, sub, small,
    kind: `k-${c.kind} d-${c.deck}`, label: [name, sub || null, points === null ? null : t("zz.points", {n: points})].filter(Boolean).join(", ")});
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
  return (id) => {
    if (index.get(id)) return cardName(index.get(id));
    const upper = String(id).replace(/^[wb]:/, "").toUpperCase();
    return has(`zz.name.${upper}`) ? t(`zz.name.${upper}`) : pretty(id);
  };
}

/** A card named as it shows (label in name, WCAG 2.5.3), with its owner before it in words for a screen reader. */
function owned(content, owner, ctx) {
  return [h("span", {class: "sr-only"}, `${t("zz.stack.owner", {owner: ctx.name(owner)})} `), content];
}

function stack(st, ctx, owner) {
  const worth = st.worth === null ? t("zz.not-scoring") : t("zz.worth", {n: st.worth});
  // The button is named by what it shows, in its order (label in name, WCAG 2.5.3), with the owner before it
  // in words for a screen reader; the covering card says it covers.
  const cover = st.cover ? card(st.cover) : null;
  if (cover) cover.setAttribute("aria-label", t("zz.stack.cover", {cover: cover.getAttribute("aria-label")}));
  const content = owned(
    h("span", {class: `zstack ${st.cover ? "covered" : ""}`}, card(st.base), " ", cover, " ", h("span", {class: "worth"}, worth)), owner, ctx);
  return h("li", {}, ctx.pick(`card:${st.base.id}`, content, null, "stack"));
}

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.players === undefined) return h("p", {class: "muted"}, t("board.deal"));
  const top = s.discard_pile.length ? s.discard_pile[s.discard_pile.length - 1] : null;
  const out = [
    h("p", {class: "facts"}, t("aob.round", {round: s.round}), ` · ${t("zz.target", {n: s.target})}`),
    h("div", {class: "piles"},
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, t("zz.deck")),
        ctx.pick("pile:deck", back(s.black_deck_size, t("zz.deck.short")), t("zz.deck.label", {n: s.black_deck_size}), "pile")),
      h("div", {class: "pile"}, h("span", {class: "pile-label"}, t("bk.discard-pile.count", {n: s.discard_pile.length})),
        ctx.pick("pile:discard", top ? [h("span", {class: "sr-only"}, `${t("zz.discard.top-of")} `), card(top)] : card(top), top ? null : t("bk.discard-pile.empty"), "pile"))),
  ];
  if (s.pending && s.pending.card) {
    const from = s.pending.source === "deck" ? "zz.pending.deck" : s.pending.source === "discard" ? "zz.pending.discard" : "zz.pending";
    out.push(h("p", {class: "note"}, t("zz.holds", {name: ctx.name(s.pending.seat)}), " ", card(s.pending.card, true), " ", t(from, {what: pendingWords(s.pending.decision)})));
  }
  const rows = h("div", {class: "zoo-rows"},
    s.players.map((p) => ctx.spot(`seat:${p.seat}`, h("section", {class: `zoo-row ${ctx.classFor(p.seat)}`, "aria-label": t("zz.row", {name: ctx.name(p.seat)})},
      h("h3", {}, ctx.pick(`seat:${p.seat}`, h("span", {}, ctx.name(p.seat)), t("zz.give-to", {name: ctx.name(p.seat)}), "seat-pick"),
        h("span", {class: "stat"}, t("bk.total", {n: p.total})),
        h("span", {class: "stat phrase"}, t("zz.this-round", {win: p.round_points.as_winner, other: p.round_points.as_other}))),
      h("ol", {class: "stacks"}, p.row.map((st) => stack(st, ctx, p.seat))),
      p.bonuses.length ? h("div", {class: "bonuses"}, t("zz.bonuses"), " ",
        fan(p.bonuses.map((c) => ctx.pick(`card:${c.id}`, owned(card(c, true), p.seat, ctx), null, "stack")))) : null))));
  // What you pick from: your row, or every row when another player's card or the player is to be picked (a swap, a gift).
  const mine = rows.querySelector(".zoo-row.you");
  (mine && !rows.querySelector(".zoo-row:not(.you) button.pick") ? mine : rows).setAttribute("data-pick-from", "");
  out.push(rows);
  if (s.results && s.results.length && !view.result) out.push(roundsTable(s.results, s.players.length, ctx));
  return h("div", {class: "board zz"}, out);
}

function pendingWords(decision) {
  return has(`zz.decision.${decision}`) ? t(`zz.decision.${decision}`) : pretty(decision).toLowerCase();
}

function roundsTable(results, seatCount, ctx) {
  return scoreTable(t("zz.rounds"), [...results.map((r) => t("aob.round", {round: r.round})), t("bk.col.total")],
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
      return t("zz.draw");
    case "take_discard":
      return t("bk.take.discard");
    case "place_wild":
      return t("zz.place-wild", {card: name(action.card)});
    case "use_mole":
      return t("zz.use-mole");
    case "decline_mole":
      return t("zz.decline-mole");
    case "give":
      return t("zz.give", {card: name(action.card), name: ctx.name(action.to)});
    case "take_card":
      return t("zz.take-card", {card: name(action.card), name: ctx.name(action.from)});
    case "swap":
      return t("zz.swap", {card: name(action.card), name: ctx.name(action.with), other: name(action.for)});
    default:
      return pretty(action.type);
  }
}

/** Name a move with nothing to pick on the table. */
export function looseLabel(key) {
  return has(`zz.loose.${key}`) ? t(`zz.loose.${key}`) : pretty(key);
}

/** What to do now. */
export function hint(view) {
  const types = new Set(view.legal_actions.map((x) => x.type));
  for (const type of ["place_wild", "give", "take_card", "swap", "use_mole"]) if (types.has(type)) return t(`zz.hint.${type}`);
  return t("zz.hint");
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
      return t("zz.log.setup");
    case "RoundDealt":
      return d.round === undefined || d.round === null ? t("zz.log.dealt.new") : t("zz.log.dealt", {round: d.round});
    case "CardDrawn":
      return t("zz.log.drawn", {name: ctx.name(d.seat), card: name(d.card)});
    case "BlackDeckRefilled":
      return t("zz.log.refilled");
    case "CardMatched":
      return t("zz.log.matched", {name: ctx.name(d.seat), card: name(d.card), onto: name(d.onto)});
    case "WildPlaced":
      return t("zz.log.wild", {name: ctx.name(d.seat), card: name(d.card), onto: name(d.onto)});
    case "SideBonusTaken":
      return t("zz.log.bonus", {name: ctx.name(d.seat), card: name(d.card)});
    case "CardDiscarded":
      return t("zz.log.discarded", {name: ctx.name(d.seat), card: name(d.card)});
    case "TurnEnded":
      return "";
    case "DiscardTaken":
      return d.onto ? t("zz.log.taken.onto", {name: ctx.name(d.seat), card: name(d.card), onto: name(d.onto)}) : t("zz.log.taken", {name: ctx.name(d.seat), card: name(d.card)});
    case "DiscardPileDug": {
      const found = (d.taken || []).map((x) => name(x.card || x.id || "")).filter(Boolean);
      return found.length ? t("zz.log.dug", {name: ctx.name(d.seat), cards: found.join(", ")}) : t("zz.log.dug.nothing", {name: ctx.name(d.seat)});
    }
    case "SpecialtyUsed": {
      const moves = (d.moves || []).map((m) => t("zz.log.move", {card: name(m.card), from: ctx.name(m.from), to: ctx.name(m.to)}));
      return t("zz.log.specialty", {name: ctx.name(d.seat), card: name(d.specialty), moves: moves.join("; ") || t("zz.log.nothing-moved")});
    }
    case "RoundWon":
      return t("zz.log.won", {name: ctx.name(d.winner), round: d.round, scores: (d.scores || []).map((x, seat) => `${ctx.name(seat)} ${x}`).join(", "), totals: (d.totals || []).join(", ")});
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
  return t("zz.why", {n: d.target});
}
