// Animals on Board at the table: the centre's groups, every ark (yours with its hidden tiles), crates; splits.
import {backChip, chip, h, pretty} from "../dom.js";

function tile(name) {
  if (name === "hidden") return backChip("face down");
  const [species, weight] = String(name).split(/-(?=\d+$)/);
  return chip(`${pretty(species)} ${weight ?? ""}`.trim(), species);
}

function tiles(list) {
  return h("span", {class: "cards"}, list.length ? list.map(tile) : h("span", {class: "muted"}, "none"));
}

/** Draw the table. */
export function board(view, ctx) {
  const s = view.state;
  if (!s || s.players === undefined) return h("p", {class: "muted"}, "Waiting for the deal.");
  const you = s.you;
  const parts = [
    h("p", {class: "facts"}, `Round ${s.round}`, ` · phase ${s.phase}`, ` · ${s.supply} crates in supply`, ` · ${s.draw_pile} tiles in the bag`,
      s.final_turn ? " · final turn" : ""),
    h("p", {class: "facts"}, "Species in play: ", s.species.map(pretty).join(", ")),
  ];
  parts.push(
    h("div", {class: "centre"}, h("h3", {}, "Centre"),
      s.centre.length
        ? h("ol", {class: "rows"}, s.centre.map((group, g) => h("li", {}, h("span", {class: "row-label"}, `Group ${g + 1}`), tiles(group))))
        : h("p", {class: "muted"}, "No groups yet.")),
  );
  parts.push(
    h("ul", {class: "seats"},
      s.players.map((p) =>
        h("li", {class: ctx.classFor(p.seat)},
          h("strong", {}, ctx.name(p.seat)),
          h("span", {class: "stat"}, `${p.crates} crates`),
          h("span", {class: "stat"}, `${p.tile_count} tiles`),
          p.start_flag ? h("span", {class: "tag"}, "start flag") : null,
          p.dropped_out ? h("span", {class: "tag"}, "out this round") : null,
          p.announced ? h("span", {class: "tag warn"}, "announced") : null,
          s.phase === "keep" && !p.chosen ? h("span", {class: "tag"}, "choosing") : null,
          h("div", {}, "Ark: ", tiles(p.ark || p.face_up), p.hidden_count && !p.ark ? h("span", {class: "muted"}, ` + ${p.hidden_count} face down`) : null),
        )),
    ),
  );
  if (you) {
    parts.push(
      h("div", {class: "hand"}, h("h3", {}, "Your ark"),
        tiles(you.ark),
        you.hidden.length ? h("p", {class: "muted"}, "Face down (only you see them): ", tiles(you.hidden)) : null,
        you.hand.length ? h("p", {}, "Your setup tiles: ", tiles(you.hand)) : null),
    );
  }
  if (s.departure) {
    parts.push(
      h("table", {class: "grid"}, h("caption", {}, "Scores"),
        h("tr", {}, h("th", {}, "Player"), h("th", {}, "Singles"), h("th", {}, "Herds"), h("th", {}, "Crates"), h("th", {}, "Total")),
        s.departure.map((d, seat) => h("tr", {}, h("td", {}, ctx.name(seat)), h("td", {}, d.single_points), h("td", {}, d.herd_points), h("td", {}, d.crate_points), h("td", {}, h("strong", {}, d.total))))),
    );
  }
  return h("div", {class: "board aob"}, parts);
}

function rest(group, first) {
  const left = [...group];
  for (const t of first) {
    const i = left.indexOf(t);
    if (i >= 0) left.splice(i, 1);
  }
  return left;
}

const words = (list) => list.map((t) => (t === "hidden" ? "face-down tile" : pretty(t).replace(/ (\d+)$/, " $1"))).join(", ");

/** Name an action. */
export function label(action, view) {
  const centre = view.state.centre || [];
  switch (action.type) {
    case "keep":
      return `Keep ${words([action.tile])} (face down)`;
    case "take": {
      const group = centre[action.group] || [];
      return `Take group ${action.group + 1}: ${words(group)} (pay ${group.length} crate${group.length === 1 ? "" : "s"})`;
    }
    case "split": {
      if (action.first === null) return `Split group ${action.group + 1} at random`;
      const group = centre[action.group] || [];
      return `Split group ${action.group + 1}: ${words(action.first)} | ${words(rest(group, action.first))}`;
    }
    case "forfeit":
      return "Forfeit (nothing else is possible)";
    default:
      return pretty(action.type);
  }
}

/** Group actions under a heading. */
export function group(action) {
  if (action.type === "keep") return "Choose a tile to keep";
  if (action.type === "split") return `Split group ${action.group + 1}`;
  if (action.type === "take") return "Take a group";
  return "Other";
}

/** A templated split (a large group): choose the tiles of the first part yourself. */
export function custom(action, view, ctx, play) {
  if (action.type !== "split" || action.first !== null || !Array.isArray(action.tiles)) return null;
  const boxes = action.tiles.map((t, i) =>
    h("label", {class: "check"}, h("input", {type: "checkbox", value: String(i)}), " ", tile(t)));
  const form = h("form", {class: "split-form", "aria-label": `Split group ${action.group + 1}`},
    h("p", {}, `Choose the tiles that stay as group ${action.group + 1}; the rest become group ${action.group + 2}.`),
    h("div", {class: "cards"}, boxes),
    h("button", {type: "submit", class: "split-submit"}, `Split group ${action.group + 1} as chosen`));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const first = boxes.filter((b) => b.querySelector("input").checked).map((b) => action.tiles[Number(b.querySelector("input").value)]);
    if (!first.length || first.length === action.tiles.length) {
      ctx.say("Choose at least one tile, and not all of them.");
      return;
    }
    // The template is posted as it came, with `first` filled in (openapi.yaml, Action).
    play({...action, first});
  });
  return form;
}

/** Describe an event for the log (null: the generic text). */
export function describe(event, ctx) {
  const d = event.data;
  if (event.type === "GroupTaken") return `${ctx.actor(event)} took group ${(d.group ?? 0) + 1}`;
  if (event.type === "GroupSplit") return `${ctx.actor(event)} split group ${(d.group ?? 0) + 1}`;
  if (event.type === "TileKept") return `${ctx.actor(event)} kept a tile${d.tile && d.tile !== "hidden" ? `: ${words([d.tile])}` : ""}`;
  return null;
}
