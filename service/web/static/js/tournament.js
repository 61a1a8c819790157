// Tournaments (standings, rounds, tables with their games) and the rating table of each game.
import {api, explain} from "./api.js";
import {h, mount} from "./dom.js";
import {GAMES, gameModule} from "./games/index.js";

const fixed = (x) => (typeof x === "number" && !Number.isInteger(x) ? x.toFixed(2) : x ?? "—");

/** Draw a tournament page. */
export async function tournament(main, id) {
  let t;
  try {
    t = await api("GET", `/tournaments/${encodeURIComponent(id)}`);
  } catch (err) {
    mount(main, h("h1", {}, "Tournament"), h("p", {class: "error", role: "alert"}, explain(err)), h("a", {href: "#/"}, "Back to the lobby"));
    return null;
  }
  const names = new Map(t.players.map((p) => [p.entrant, p.bot ? `${p.name || "bot"} (${p.bot})` : p.name]));
  mount(
    main,
    h("h1", {}, `Tournament: ${gameModule(t.game).title} `, h("small", {class: "muted"}, t.id)),
    h("p", {class: "facts"}, `${t.format} · ${t.status} · round ${t.round} of ${t.planned_rounds} · ${t.players.length} players`),
    h("section", {class: "panel"}, h("h2", {}, "Standings"),
      h("table", {class: "grid", id: "standings"},
        h("tr", {}, ["Rank", "Player", "Points", "Opp. points", "Wins", "Games", "Byes"].map((c) => h("th", {scope: "col"}, c))),
        t.standings.map((l) => h("tr", {}, h("td", {}, l.rank), h("td", {}, names.get(l.entrant) || l.name), h("td", {}, fixed(l.points)),
          h("td", {}, fixed(l.opponents_points)), h("td", {}, l.wins), h("td", {}, l.games), h("td", {}, l.byes))))),
    t.rounds.map((r) =>
      h("section", {class: "panel"}, h("h2", {}, `Round ${r.round}`),
        r.byes.length ? h("p", {}, "Byes: ", r.byes.map((e) => names.get(e)).join(", ")) : null,
        h("ul", {class: "game-list"}, r.tables.map((tab) =>
          h("li", {}, h("strong", {}, `Table ${tab.table}: `), tab.names.join(", "),
            tab.places ? h("span", {class: "muted"}, ` · places ${tab.places.join(", ")} · points ${tab.points.join(", ")}`) : h("span", {class: "muted"}, " · in play"),
            tab.game_id ? h("span", {class: "links"}, h("a", {href: `#/game/${tab.game_id}`}, "Table"), tab.places ? h("a", {href: `#/replay/${tab.game_id}`}, "Replay") : null) : null))))),
    h("p", {}, h("a", {href: `#/leaderboards/${t.game}`}, "Ratings for this game")),
  );
  return null;
}

/** Draw the rating table of a game (or a chooser). */
export async function leaderboards(main, game) {
  const tabs = h("nav", {class: "links", "aria-label": "Games"}, Object.entries(GAMES).map(([gid, g]) => h("a", {href: `#/leaderboards/${gid}`, "aria-current": gid === game ? "page" : null}, g.title)));
  if (!game) {
    mount(main, h("h1", {}, "Leaderboards"), tabs, h("p", {}, "Choose a game."));
    return null;
  }
  try {
    const board = await api("GET", `/leaderboards/${encodeURIComponent(game)}`);
    mount(main, h("h1", {}, `Leaderboard: ${gameModule(game).title}`), tabs,
      h("p", {class: "facts"}, `${board.rated_games} rated games · openskill (Plackett–Luce); ordinal = μ − 3σ`),
      board.players.length
        ? h("table", {class: "grid", id: "leaderboard"},
            h("tr", {}, ["Rank", "Player", "Ordinal", "μ", "σ", "Games"].map((c) => h("th", {scope: "col"}, c))),
            board.players.map((p) => h("tr", {}, h("td", {}, p.rank), h("td", {}, p.player), h("td", {}, fixed(p.ordinal)), h("td", {}, fixed(p.mu)), h("td", {}, fixed(p.sigma)), h("td", {}, p.games))))
        : h("p", {class: "muted"}, "No rated games yet."));
  } catch (err) {
    mount(main, h("h1", {}, "Leaderboard"), tabs, h("p", {class: "error", role: "alert"}, explain(err)));
  }
  return null;
}
