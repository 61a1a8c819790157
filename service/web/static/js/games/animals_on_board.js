// Animals on Board at the table: the centre's groups, every ark (yours with its hidden tiles), crates. Split a
// group by picking the tiles that stay in it, take one by picking all its tiles; then confirm.
import {back, face, fan} from "../cards.js";
import {exactly} from "../choose.js";
import {scoreTable, sentenceList} from "../context.js";
import {h, pretty} from "../dom.js";
import {animal, cap, t} from "../i18n.js";

const GAME = "animals-on-board";
const HIDDEN = "hidden";

function parts(name) {
  const [species, value] = String(name).split(/-(?=\d+$)/);
  return {species, value: value === undefined ? null : Number(value)};
}

function tile(name, small = false) {
  if (name === HIDDEN) return back(null, t("aob.face-down"));
  const {species, value} = parts(name);
  return face({game: GAME, species, name: speciesName(species), number: value, small});
}

const speciesName = (species) => cap(animal(GAME, species));
const word = (name) => (name === HIDDEN ? t("aob.a-face-down") : `${speciesName(parts(name).species)} ${parts(name).value}`);
const words = (list) => sentenceList((list || []).map(word)) || t("aob.nothing");

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.players === undefined) return h("p", {class: "muted"}, t("board.deal"));
  const you = s.you;
  const out = [
    h("p", {class: "facts"}, [s.round ? t("aob.round", {round: s.round}) : t("aob.setup"), t("aob.supply", {n: s.supply}), t("aob.bag", {n: s.draw_pile}), s.final_turn ? t("aob.final-turn") : null].filter(Boolean).join(" · ")),
    h("p", {class: "facts"}, t("aob.species", {names: s.species.map(speciesName).join(", ")})),
    h("div", {class: "centre", "data-pick-from": you && you.hand.length ? null : ""}, h("h3", {}, t("aob.centre")),
      s.centre.length
        ? h("ol", {class: "rows"}, s.centre.map((group, g) => ctx.spot(`group:${g}`, h("li", {},
          h("span", {class: "row-label"}, t("aob.group", {number: g + 1})),
          h("span", {class: "fan"}, group.map((one, i) => ctx.pick(`tile:${g}:${i}`, tile(one), t("aob.group.tile", {number: g + 1, tile: word(one)}), "tile")))))))
        : h("p", {class: "muted"}, t("aob.no-groups"))),
    h("ul", {class: "seats"},
      s.players.map((p) => ctx.spot(`seat:${p.seat}`, h("li", {class: ctx.classFor(p.seat)},
        h("strong", {}, ctx.name(p.seat)),
        h("span", {class: "stat"}, t("aob.crates", {n: p.crates})),
        h("span", {class: "stat"}, t("aob.tiles", {n: p.tile_count})),
        p.start_flag ? h("span", {class: "tag"}, t("aob.start-flag")) : null,
        p.dropped_out ? h("span", {class: "tag"}, t("aob.out")) : null,
        p.announced ? h("span", {class: "tag warn"}, t("aob.announced")) : null,
        s.phase === "keep" && !p.chosen ? h("span", {class: "tag"}, t("aob.choosing")) : null,
        p.seat !== (you && you.seat) ? h("div", {class: "ark"}, fan(otherArk(p, s).map((one) => (one ? tile(one, true) : back(null, t("aob.face-down")))))) : null)))),
  ];
  if (you) {
    out.push(h("div", {class: "hand", "data-pick-from": you.hand.length ? "" : null, "aria-label": t("aob.your-ark")}, h("h3", {}, t("aob.your-ark.title", {tiles: t("aob.tiles", {n: you.ark.length}), crates: t("aob.crates", {n: you.crates})})),
      you.ark.length ? fan(you.ark.map((one) => h("span", {class: you.hidden.includes(one) ? "secret" : ""}, tile(one, true)))) : h("p", {class: "muted"}, t("aob.empty")),
      you.hidden.length ? h("p", {class: "muted"}, t("aob.hidden", {tiles: words(you.hidden)})) : null,
      you.hand.length ? h("div", {}, h("h3", {}, t("aob.setup-tiles")),
        fan(you.hand.map((one) => ctx.pick(`keep:${one}`, tile(one), t("aob.keep.pick", {tile: word(one)}), "tile")))) : null));
  }
  if (s.departure && !view.result) out.push(departureTable(s.departure, ctx));
  return h("div", {class: "board aob"}, out);
}

/** Another player's ark: its face-down tiles as backs (null) while the game goes on, every tile face up once the arks depart. */
function otherArk(p, s) {
  const departed = s.departure && s.departure[p.seat] ? s.departure[p.seat].ark : null;
  if (p.ark || departed) return p.ark || departed;
  return [...p.face_up, ...Array.from({length: p.hidden_count}, () => null)];
}

function departureTable(departure, ctx) {
  return scoreTable(t("aob.departure"), [t("aob.col.singles"), t("aob.col.herds"), t("aob.col.crates"), t("bk.col.total")],
    departure.map((d, seat) => ({seat, cells: [d.single_points, d.herd_points, d.crate_points, d.total]})), ctx);
}

const sameTiles = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** What a player may pick: a setup tile; a group's label (take); some of a group's tiles (split). */
export function choices(view) {
  const centre = view.state.centre || [];
  const specs = [];
  const splits = new Map();
  for (const action of view.legal_actions) {
    if (action.type === "keep") specs.push(exactly(action, [`keep:${action.tile}`]));
    // Taking a group is picking all of its tiles; picking some of them splits it.
    else if (action.type === "take") specs.push(exactly(action, (centre[action.group] || []).map((_, i) => `tile:${action.group}:${i}`)));
    else if (action.type === "split") {
      if (!splits.has(action.group)) splits.set(action.group, []);
      splits.get(action.group).push(action);
      if (action.first === null) specs.push(exactly(action, [`random:${action.group}`]));
    } else specs.push(exactly(action, [action.type]));
  }
  for (const [g, actions] of splits) {
    const group = centre[g] || [];
    const pool = group.map((_, i) => `tile:${g}:${i}`);
    specs.push({keys: [], pool, min: 1, max: group.length - 1, make: (picked) => {
      const first = picked.map((key) => group[Number(key.split(":")[2])]);
      const rest = group.filter((_, i) => !picked.includes(`tile:${g}:${i}`));
      const template = actions.find((a) => a.first === null);
      if (template) return {...template, first};
      // The listed splits keep the last tile in the second group: the mirror image is the same split.
      return actions.find((a) => sameTiles(a.first, first) || sameTiles(a.first, rest)) || null;
    }});
  }
  return specs;
}

function rest(group, first) {
  const left = [...group];
  for (const t of first) {
    const i = left.indexOf(t);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

/** Name a move. */
export function label(action, view) {
  const centre = view.state.centre || [];
  switch (action.type) {
    case "keep":
      return t("aob.keep", {tile: word(action.tile)});
    case "take": {
      const group = centre[action.group] || [];
      return t("aob.take", {number: action.group + 1, tiles: words(group), n: group.length});
    }
    case "split": {
      if (action.first === null) return t("aob.split.random", {number: action.group + 1});
      const group = centre[action.group] || [];
      return t("aob.split", {number: action.group + 1, first: words(action.first), second: words(rest(group, action.first))});
    }
    case "forfeit":
      return t("aob.forfeit");
    default:
      return pretty(action.type);
  }
}

/** Name a move with nothing to pick on the table. */
export function looseLabel(key) {
  if (key.startsWith("random:")) return cap(t("aob.split.random", {number: Number(key.split(":")[1]) + 1}));
  return key === "forfeit" ? t("aob.forfeit.short") : pretty(key);
}

/** What to do now. */
export function hint(view) {
  if (view.state.phase === "keep") return t("aob.hint.keep");
  return t("aob.hint");
}

/** Where the last move happened. */
export function marks(events) {
  return events.flatMap((e) => {
    if (e.type === "GroupSplit") return [`group:${e.data.group}`, `group:${e.data.group + 1}`];
    if (e.type === "GroupTaken") return [`seat:${e.actor}`];
    return [];
  });
}

// Why a round ended, as the server says it, to the words of the page.
const REASONS = {
  "the last player in the round had their final turn": "aob.reason.final",
  "no player left in the round can act": "aob.reason.stuck",
};

/** Describe an event in words. */
export function describe(event, ctx) {
  const d = event.data || {};
  switch (event.type) {
    case "GameSetUp":
      return t("aob.log.setup", {n: d.seats, supply: d.supply, species: (d.species || []).map(speciesName).join(", ")});
    case "TileKept":
      return d.tile && d.tile !== HIDDEN ? t("aob.log.kept.tile", {name: ctx.actor(event), tile: word(d.tile)}) : t("aob.log.kept", {name: ctx.actor(event)});
    case "SetupTilesRevealed":
      return t("aob.log.revealed");
    case "RoundStarted":
      return t("aob.log.round", {round: d.round, tiles: words(d.drawn), name: ctx.name(d.starter)});
    case "GroupSplit":
      return t(d.crate_returned ? "aob.log.split.full" : "aob.log.split", {name: ctx.actor(event), number: d.group + 1, first: words(d.first), second: words(d.second)});
    case "GroupTaken":
      return t(d.announced ? "aob.log.taken.full" : "aob.log.taken", {name: ctx.actor(event), number: d.group + 1, tiles: words(d.tiles), n: d.paid});
    case "TurnForfeited":
      return t("aob.log.forfeited", {name: ctx.actor(event)});
    case "RoundEnded":
      return t("aob.log.round-ended", {round: d.round, reason: REASONS[d.reason] ? t(REASONS[d.reason]) : d.reason});
    case "ArksDeparted":
      return t("aob.log.departed", {points: (d.arks || []).map((ark) => `${ctx.name(ark.seat)} ${ark.total}`).join(", ")});
    default:
      return null;
  }
}

/** Every seat's score at the end. */
export function scores(view, ctx) {
  const breakdown = (view.result.detail || {}).breakdown || [];
  return h("div", {}, departureTable(breakdown, ctx),
    h("ul", {class: "plain"}, breakdown.map((b, seat) => b.discarded_pairs && b.discarded_pairs.length
      ? h("li", {}, t("aob.discarded-pairs", {name: ctx.name(seat), tiles: words(b.discarded_pairs)})) : null)));
}

/** Why the winner won. */
export function why() {
  return t("aob.why");
}
