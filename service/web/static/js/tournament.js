// Tournaments (standings, rounds, tables with their games) and the rating table of each game.
import {api, entries, explain} from "./api.js";
import {h, mount} from "./dom.js";
import {GAMES, gameModule} from "./games/index.js";

const fixed = (x) => (typeof x === "number" && !Number.isInteger(x) ? x.toFixed(2) : x ?? "—");

/** Draw a tournament page: register, your games (with their seats), standings and rounds, kept live. */
export async function tournament(main, id) {
  const alert = h("p", {class: "error", role: "alert"});
  const body = h("div", {id: "tournament"});
  mount(main, alert, body);
  let stopped = false;
  let timer = null;

  async function load() {
    const mine = entries.get(id);
    try {
      return await api("GET", `/tournaments/${encodeURIComponent(id)}`, {token: mine && mine.token});
    } catch (err) {
      if (mine && (err.status === 401 || err.status === 403)) {
        entries.forget(id);
        return api("GET", `/tournaments/${encodeURIComponent(id)}`);
      }
      throw err;
    }
  }

  async function refresh() {
    if (stopped) return;
    try {
      const t = await load();
      if (stopped) return;
      alert.textContent = "";
      draw(t);
      // Standings and "your games" change as games end elsewhere: read again while the tournament runs.
      if (t.status !== "finished") timer = setTimeout(refresh, POLL_MS);
    } catch (err) {
      alert.textContent = explain(err);
      if (!body.childElementCount) mount(body, h("h1", {}, "Tournament"), h("a", {href: "#/"}, "Back to the lobby"));
      timer = setTimeout(refresh, POLL_MS * 3);
    }
  }

  function draw(t) {
    const focused = document.activeElement && document.activeElement.id;
    const typed = body.querySelector("#entrant-name");
    const names = new Map(t.players.map((p) => [p.entrant, p.bot ? `${p.name || "bot"} (${p.bot})` : p.name]));
    const mine = entries.get(id);
    mount(body,
      h("h1", {}, `Tournament: ${gameModule(t.game).title} `, h("small", {class: "muted"}, t.id)),
      h("p", {class: "facts"}, `${t.format === "swiss" ? "Swiss" : "Round robin"} · ${STATUS[t.status] || t.status} · round ${t.round} of ${t.planned_rounds} · ${t.players.length} players`),
      t.status === "registering" && !mine ? registerForm(typed ? typed.value : "") : null,
      mine ? yourGames(t, mine) : null,
      h("section", {class: "panel"}, h("h2", {}, "Standings"),
        h("div", {class: "scroll-x"}, h("table", {class: "grid", id: "standings"},
          h("thead", {}, h("tr", {}, ["Rank", "Player", "Points", "Opp. points", "Wins", "Games", "Byes"].map((c) => h("th", {scope: "col"}, c)))),
          h("tbody", {}, t.standings.map((l) => h("tr", {class: mine && l.entrant === mine.entrant ? "you" : ""}, h("td", {}, l.rank), h("td", {}, names.get(l.entrant) || l.name), h("td", {}, fixed(l.points)),
            h("td", {}, fixed(l.opponents_points)), h("td", {}, l.wins), h("td", {}, l.games), h("td", {}, l.byes))))))),
      [...t.rounds].reverse().map((r) =>
        h("section", {class: "panel"}, h("h2", {}, `Round ${r.round}`),
          r.byes.length ? h("p", {}, "Byes: ", r.byes.map((e) => names.get(e)).join(", ")) : null,
          h("ul", {class: "game-list"}, r.tables.map((tab) =>
            h("li", {}, h("strong", {}, `Table ${tab.table + 1}: `), tab.names.join(", "),
              tab.places ? h("span", {class: "muted"}, ` · places ${tab.places.join(", ")} · points ${tab.points.map(fixed).join(", ")}`) : h("span", {class: "muted"}, " · in play"),
              tab.game_id ? h("span", {class: "links"}, h("a", {href: `#/game/${tab.game_id}`}, tab.places ? "Final table" : "Watch"), tab.places ? h("a", {href: `#/replay/${tab.game_id}`}, "Replay") : null) : null))))),
      h("p", {}, h("a", {href: `#/leaderboards/${t.game}`}, "Ratings for this game")),
    );
    if (focused) {
      const again = body.querySelector(`#${CSS.escape(focused)}`);
      if (again) again.focus();
    }
  }

  function registerForm(typed) {
    const input = h("input", {id: "entrant-name", required: true, maxlength: 40, autocomplete: "nickname", value: typed || localStorage.getItem("menagerie:name") || ""});
    const message = h("p", {class: "error", role: "alert"});
    const form = h("form", {class: "panel", id: "register-form"}, h("h2", {}, "Play in this tournament"),
      h("div", {class: "field"}, h("label", {for: "entrant-name"}, "Your name"), input),
      h("button", {type: "submit", id: "register-button"}, "Register"), message);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) {
        message.textContent = "Enter a name.";
        return;
      }
      try {
        const entry = await api("POST", `/tournaments/${encodeURIComponent(id)}/register`, {body: {name}});
        localStorage.setItem("menagerie:name", name);
        entries.put(id, {token: entry.token, entrant: entry.entrant, name: entry.name});
        clearTimeout(timer);
        refresh();
      } catch (err) {
        message.textContent = explain(err);
      }
    });
    return form;
  }

  function yourGames(t, mine) {
    const games = t.your_games || [];
    return h("section", {class: "panel", id: "your-games"}, h("h2", {}, `Your games, ${mine.name}`),
      games.length
        ? h("ul", {class: "game-list"}, [...games].reverse().map((g) => h("li", {},
          `Round ${g.round}, table ${g.table + 1}, seat ${g.seat + 1}: `,
          g.token ? h("a", {href: `#/seat/${g.game_id}/${g.token}`, class: "play-link"}, "Play") : h("a", {href: `#/game/${g.game_id}`}, "Watch"))))
        : h("p", {class: "muted"}, t.status === "registering" ? "You are registered. Your games appear here when the organiser starts the tournament." : "No game for you in this round (a bye, or the round is being paired)."));
  }

  await refresh();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

const POLL_MS = 3000;
const STATUS = {registering: "open for registration", active: "in play", finished: "finished"};

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
