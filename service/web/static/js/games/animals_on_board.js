// Animals on Board at the table: the centre's groups, every ark (yours with its hidden tiles), crates. Split a
// group by picking the tiles that stay in it, take one by picking all its tiles; then confirm.
import {back, face, fan} from "../cards.js";
import {exactly} from "../choose.js";
import {scoreTable, sentenceList} from "../context.js";
import {h, pretty} from "../dom.js";

const GAME = "animals-on-board";
const HIDDEN = "hidden";

function parts(name) {
  const [species, value] = String(name).split(/-(?=\d+$)/);
  return {species, value: value === undefined ? null : Number(value)};
}

function tile(name, small = false) {
  if (name === HIDDEN) return back(null, "face-down tile");
  const {species, value} = parts(name);
  return face({game: GAME, species, name: pretty(species), number: value, small});
}

const word = (name) => (name === HIDDEN ? "a face-down tile" : `${pretty(parts(name).species)} ${parts(name).value}`);
const words = (list) => sentenceList((list || []).map(word)) || "nothing";

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.players === undefined) return h("p", {class: "muted"}, "Waiting for the deal.");
  const you = s.you;
  const out = [
    h("p", {class: "facts"}, s.round ? `Round ${s.round}` : "Setup", ` · ${s.supply} crates in supply`, ` · ${s.draw_pile} tiles in the bag`, s.final_turn ? " · final turn" : ""),
    h("p", {class: "facts"}, "Species in play: ", s.species.map(pretty).join(", ")),
    h("div", {class: "centre"}, h("h3", {}, "Centre"),
      s.centre.length
        ? h("ol", {class: "rows"}, s.centre.map((group, g) => ctx.spot(`group:${g}`, h("li", {},
          h("span", {class: "row-label"}, `Group ${g + 1}`),
          h("span", {class: "fan"}, group.map((t, i) => ctx.pick(`tile:${g}:${i}`, tile(t), `Group ${g + 1}: ${word(t)}`, "tile")))))))
        : h("p", {class: "muted"}, "No groups yet.")),
    h("ul", {class: "seats"},
      s.players.map((p) => ctx.spot(`seat:${p.seat}`, h("li", {class: ctx.classFor(p.seat)},
        h("strong", {}, ctx.name(p.seat)),
        h("span", {class: "stat"}, `${p.crates} crate${p.crates === 1 ? "" : "s"}`),
        h("span", {class: "stat"}, `${p.tile_count} tile${p.tile_count === 1 ? "" : "s"}`),
        p.start_flag ? h("span", {class: "tag"}, "start flag") : null,
        p.dropped_out ? h("span", {class: "tag"}, "out this round") : null,
        p.announced ? h("span", {class: "tag warn"}, "announced") : null,
        s.phase === "keep" && !p.chosen ? h("span", {class: "tag"}, "choosing") : null,
        p.seat !== (you && you.seat) ? h("div", {class: "ark"}, fan([...(p.ark || p.face_up).map((t) => tile(t, true)),
          ...(!p.ark ? Array.from({length: p.hidden_count}, () => back(null, "face-down tile")) : [])])) : null)))),
  ];
  if (you) {
    out.push(h("div", {class: "hand", "aria-label": "Your ark"}, h("h3", {}, `Your ark (${you.ark.length} tiles, ${you.crates} crates)`),
      you.ark.length ? fan(you.ark.map((t) => h("span", {class: you.hidden.includes(t) ? "secret" : ""}, tile(t, true)))) : h("p", {class: "muted"}, "Empty so far."),
      you.hidden.length ? h("p", {class: "muted"}, `Face down, only you see them: ${words(you.hidden)}.`) : null,
      you.hand.length ? h("div", {}, h("h3", {}, "Your setup tiles: keep one face down"),
        fan(you.hand.map((t) => ctx.pick(`keep:${t}`, tile(t), `Keep ${word(t)}`, "tile")))) : null));
  }
  if (s.departure && !view.result) out.push(departureTable(s.departure, ctx));
  return h("div", {class: "board aob"}, out);
}

function departureTable(departure, ctx) {
  return scoreTable("Arks at departure", ["Singles", "Herds", "Crates", "Total"],
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
      return `keep ${word(action.tile)} face down`;
    case "take": {
      const group = centre[action.group] || [];
      return `take group ${action.group + 1} (${words(group)}), pay ${group.length} crate${group.length === 1 ? "" : "s"}`;
    }
    case "split": {
      if (action.first === null) return `split group ${action.group + 1} at random`;
      const group = centre[action.group] || [];
      return `split group ${action.group + 1} into ${words(action.first)} | ${words(rest(group, action.first))}`;
    }
    case "forfeit":
      return "forfeit the turn (nothing else is possible)";
    default:
      return pretty(action.type);
  }
}

/** Name a move with nothing to pick on the table. */
export function looseLabel(key) {
  if (key.startsWith("random:")) return `Split group ${Number(key.split(":")[1]) + 1} at random`;
  return key === "forfeit" ? "Forfeit the turn" : pretty(key);
}

/** What to do now. */
export function hint(view) {
  if (view.state.phase === "keep") return "Pick the setup tile you keep face down, then confirm.";
  return "Pick the tiles that stay in a group to split it, or every tile of a group to take it; then confirm.";
}

/** Where the last move happened. */
export function marks(events) {
  return events.flatMap((e) => {
    if (e.type === "GroupSplit") return [`group:${e.data.group}`, `group:${e.data.group + 1}`];
    if (e.type === "GroupTaken") return [`seat:${e.actor}`];
    return [];
  });
}

/** Describe an event in words. */
export function describe(event, ctx) {
  const d = event.data || {};
  switch (event.type) {
    case "GameSetUp":
      return `${d.seats} players, ${d.supply} crates in supply; species in play: ${(d.species || []).map(pretty).join(", ")}. Each player holds three setup tiles.`;
    case "TileKept":
      return `${ctx.actor(event)} kept a setup tile face down${d.tile && d.tile !== HIDDEN ? ` (${word(d.tile)})` : ""}.`;
    case "SetupTilesRevealed":
      return "Everyone's two other setup tiles go face up on their arks.";
    case "RoundStarted":
      return `Round ${d.round}: ${words(d.drawn)} and a face-down tile come to the centre; ${ctx.name(d.starter)} starts.`;
    case "GroupSplit":
      return `${ctx.actor(event)} split group ${d.group + 1} into ${words(d.first)} | ${words(d.second)}${d.crate_returned ? " (holding five crates, they now keep four)" : ", taking a crate"}.`;
    case "GroupTaken":
      return `${ctx.actor(event)} took group ${d.group + 1} (${words(d.tiles)}) for ${d.paid} crate${d.paid === 1 ? "" : "s"} and sits out the rest of the round${d.announced ? ", announcing a full ark" : ""}.`;
    case "TurnForfeited":
      return `${ctx.actor(event)} could neither split nor take, and forfeited the turn.`;
    case "RoundEnded":
      return `Round ${d.round} ended: ${d.reason}.`;
    case "ArksDeparted":
      return `The arks departed: ${(d.arks || []).map((a) => `${ctx.name(a.seat)} ${a.total}`).join(", ")} points.`;
    default:
      return null;
  }
}

/** Every seat's score at the end. */
export function scores(view, ctx) {
  const breakdown = (view.result.detail || {}).breakdown || [];
  return h("div", {}, departureTable(breakdown, ctx),
    h("ul", {class: "plain"}, breakdown.map((b, seat) => b.discarded_pairs && b.discarded_pairs.length
      ? h("li", {}, `${ctx.name(seat)} discarded pairs: ${words(b.discarded_pairs)}.`) : null)));
}

/** Why the winner won. */
export function why() {
  return "Highest total wins: a single tile scores its number, a herd of three or more 5 a tile, each crate 1; on a tie, more different species wins, and a tie still is shared.";
}
