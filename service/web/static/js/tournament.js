// Tournaments (standings, rounds, tables with their games) and the rating table of each game.
import {account, playingAs, sitterAs} from "./account.js";
import {api, entries, entropyFor, explain, keepSeatReceipt} from "./api.js";
import {h, mount} from "./dom.js";
import {GAMES, gameModule} from "./games/index.js";
import {list, t} from "./i18n.js";
import {correctionsPanel, organiser, organiserPanel, sayCup} from "./organise.js";

const fixed = (x) => (typeof x === "number" && !Number.isInteger(x) ? x.toFixed(2) : x ?? "—");

/** A table's result is in (played, forfeited or void): its game is no longer one to play. */
const decided = (tab) => Boolean(tab.places || tab.void || (tab.forfeited && tab.forfeited.length));

/**
 * Draw a tournament page: register, your games (with their seats), standings and rounds, kept live; for
 * its organiser (a token kept in this browser) the organiser's panel too. `code`: an invitation code a
 * shared link brought (#/tournament/<id>/code/<code>).
 */
export async function tournament(main, id, code = null) {
  const alert = h("p", {class: "error", role: "alert"});
  const body = h("div", {id: "tournament"});
  mount(main, alert, body);
  let stopped = false;
  let timer = null;
  // The organiser's panel's state outlives the redraws: a reason being typed, the entrant being removed.
  const desk = {removing: null, types: null};
  // The code a shared link brought, or the organiser's own (who may play too).
  let typedCode = code ? decodeURIComponent(code) : (organiser(id) || {}).code || "";

  async function load() {
    // The game type's bot kinds, for the organiser's "add a bot" (once, while registering).
    if (desk.types === null && organiser(id)) {
      desk.types = [];
      api("GET", "/game-types").then(({game_types: types}) => {
        desk.types = types;
        if (last) draw(last);
      }).catch(() => {
        desk.types = null; // asked again at the next read
      });
    }
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
      const cup = await load();
      if (stopped) return;
      alert.textContent = "";
      // Drawn again only when something changed: a reason or a code being typed is left alone.
      if (!last || JSON.stringify(cup) !== JSON.stringify(last)) draw(cup);
      // Standings and "your games" change as games end elsewhere: read again while the tournament runs.
      if (cup.status !== "finished") timer = setTimeout(refresh, POLL_MS);
    } catch (err) {
      alert.textContent = explain(err);
      if (!body.childElementCount) mount(body, h("h1", {}, t("cup.title")), h("a", {href: "#/"}, t("page.back")));
      timer = setTimeout(refresh, POLL_MS * 3);
    }
  }

  let last = null;
  function draw(cup) {
    last = cup;
    const focused = document.activeElement && document.activeElement.id;
    const typed = body.querySelector("#entrant-name");
    const names = new Map(cup.players.map((p) => [p.entrant, p.bot ? t("cup.bot", {name: p.name || t("cup.bot-name"), bot: p.bot}) : p.name]));
    // A bot entrant sits at its table under its name ("heuristic-3 (heuristic)"), as its game's own page names it.
    const atTable = (tab) => tab.entrants.map((e, seat) => names.get(e) || tab.names[seat]);
    desk.seated = atTable;
    const mine = entries.get(id);
    const organising = Boolean(organiser(id));
    // An organiser types the API's table number (corrections, the printed pairings): it stands beside ours.
    const tableWords = (tab) => (organising ? t("cup.table.api", {number: tab.table + 1, api: tab.table}) : t("cup.table", {number: tab.table + 1}));
    mount(body,
      h("h1", {}, t("cup.heading", {game: gameModule(cup.game).title}), " ", h("small", {class: "muted"}, cup.id)),
      h("p", {class: "facts"}, [t(cup.format === "swiss" ? "cup.swiss" : "cup.round-robin"), t(`cup.status.${cup.status}`), (cup.round ? t("cup.round-of", {round: cup.round, of: cup.planned_rounds}) : t("cup.rounds-planned", {of: cup.planned_rounds})), t("cup.players", {n: cup.players.length}), t(`org.registration.${cup.registration || "open"}`)].join(" · ")),
      organiserPanel(cup, desk, (view) => {
        if (view) draw(view);
        else if (last) draw(last);
        clearTimeout(timer);
        refresh();
      }),
      cup.status === "registering" && !mine ? registerForm(typed ? typed.value : "", cup) : null,
      mine ? yourGames(cup, mine) : null,
      h("section", {class: "panel"}, h("h2", {}, t("cup.standings")),
        h("div", {class: "scroll-x"}, h("table", {class: "grid", id: "standings"},
          h("thead", {}, h("tr", {}, ["rank", "player", "points", "opp-points", "wins", "games", "byes"].map((c) => h("th", {scope: "col"}, t(`cup.col.${c}`))))),
          h("tbody", {}, cup.standings.map((l) => h("tr", {class: mine && l.entrant === mine.entrant ? "you" : ""}, h("td", {}, l.rank), h("td", {}, names.get(l.entrant) || l.name), h("td", {}, fixed(l.points)),
            h("td", {}, fixed(l.opponents_points)), h("td", {}, l.wins), h("td", {}, l.games), h("td", {}, l.byes))))))),
      [...cup.rounds].reverse().map((r) =>
        h("section", {class: "panel"}, h("h2", {}, t("cup.round", {round: r.round})),
          // The printed sheet (tables and seats counted from 1, the API's table number beside each): anyone may read it.
          h("p", {}, h("a", {href: `/tournaments/${encodeURIComponent(id)}/rounds/${r.round}/pairings`, class: "pairings-link", target: "_blank", rel: "noopener"}, t("cup.pairings", {round: r.round}))),
          r.byes.length ? h("p", {}, t("cup.byes", {names: list(r.byes.map((e) => names.get(e)))})) : null,
          h("ul", {class: "game-list"}, r.tables.map((tab) =>
            h("li", {"data-table": String(tab.table)}, h("strong", {}, tableWords(tab)), " ", atTable(tab).join(", "),
              h("span", {class: "muted"}, ` · ${tableState(tab)}`),
              tab.game_id ? h("span", {class: "links"}, h("a", {href: `#/game/${tab.game_id}`}, decided(tab) ? t("cup.view") : t("lobby.watch")), decided(tab) ? h("a", {href: `#/replay/${tab.game_id}`}, t("lobby.replay")) : null) : null))))),
      correctionsPanel(cup, names),
      h("p", {}, h("a", {href: `#/leaderboards/${cup.game}`}, t("cup.ratings"))),
    );
    if (focused) {
      const again = body.querySelector(`#${CSS.escape(focused)}`);
      if (again) again.focus();
    }
  }

  /** A table's state in words: its places and points, void, or in play. */
  function tableState(tab) {
    if (tab.void) return t("cup.void");
    if (tab.places && tab.points) return t("cup.places", {places: tab.places.join(", "), points: tab.points.map(fixed).join(", ")});
    if (tab.places) return t("cup.forfeited");
    return t("status.active");
  }

  function registerForm(typed, cup) {
    const dealing = cup.dealing;
    // Registration by code: the code field, filled from a shared link when one brought it.
    const codeInput = cup.registration === "code"
      ? h("input", {id: "invitation-input", autocomplete: "off", spellcheck: false, value: typedCode, oninput: (e) => {
        typedCode = e.target.value;
      }})
      : null;
    const input = h("input", {id: "entrant-name", required: true, maxlength: 40, autocomplete: "nickname", value: typed || localStorage.getItem("menagerie:name") || ""});
    const message = h("p", {class: "error", role: "alert"});
    const signedIn = account();
    // With an account kept, the place is the account's (rated): its handle names it, not a typed name.
    const form = h("form", {class: "panel", id: "register-form"}, h("h2", {}, t("cup.register-title")),
      signedIn ? playingAs() : h("div", {class: "field"}, h("label", {for: "entrant-name"}, t("lobby.your-name")), input),
      codeInput ? h("div", {class: "field"}, h("label", {for: "invitation-input"}, t("cup.code")), codeInput,
        h("small", {class: "muted"}, t("cup.code.help"))) : null,
      cup.registration === "approval" ? h("p", {class: "muted"}, t("cup.approval.help")) : null,
      h("button", {type: "submit", id: "register-button"}, t("cup.register")), message);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = signedIn ? signedIn.handle : input.value.trim();
      if (!name) {
        message.textContent = t("form.enter-name");
        return;
      }
      try {
        const sent = entropyFor(`register:${id}:${name}`);
        const asked = {...sitterAs(name), entropy: sent};
        if (codeInput && codeInput.value.trim()) asked.invitation_code = codeInput.value.trim();
        const entry = await api("POST", `/tournaments/${encodeURIComponent(id)}/register`, {body: asked});
        if (!signedIn) localStorage.setItem("menagerie:name", name);
        entries.put(id, {token: entry.token, entrant: entry.entrant, name: entry.name});
        // The registration's receipt: its PlayerRegistered must hold the entropy sent (in a shared tournament).
        if (!keepSeatReceipt(id, entry.receipt, sent, dealing)) {
          message.textContent = t("seat.entropy-missing");
          return;
        }
        clearTimeout(timer);
        refresh();
      } catch (err) {
        message.textContent = sayCup(err);
      }
    });
    return form;
  }

  function yourGames(cup, mine) {
    const games = cup.your_games || [];
    const tables = new Map(cup.rounds.flatMap((r) => r.tables.map((tab) => [tab.game_id, tab])));
    const me = cup.players.find((p) => p.entrant === mine.entrant);
    const waiting = cup.status === "registering" ? t(me && me.status === "pending" ? "cup.pending" : "cup.registered") : t("cup.no-game");
    // "Play" only while the game can still be played; a decided one is viewed or replayed.
    const links = (g) => {
      const tab = tables.get(g.game_id);
      if (tab && decided(tab)) return [h("a", {href: `#/game/${g.game_id}`}, t("cup.view")), " ", h("a", {href: `#/replay/${g.game_id}`}, t("lobby.replay"))];
      return g.token ? h("a", {href: `#/seat/${g.game_id}/${g.token}`, class: "play-link"}, t("lobby.play")) : h("a", {href: `#/game/${g.game_id}`}, t("lobby.watch"));
    };
    return h("section", {class: "panel", id: "your-games"}, h("h2", {}, t("cup.your-games", {name: mine.name})),
      games.length
        ? h("ul", {class: "game-list"}, [...games].reverse().map((g) => h("li", {},
          t("cup.your-game", {round: g.round, table: g.table + 1, seat: g.seat + 1}), " ", links(g))))
        : h("p", {class: "muted"}, waiting));
  }

  await refresh();
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  stop.redraw = () => last && draw(last);
  return stop;
}

const POLL_MS = 3000;

/** Draw the rating table of a game (or a chooser). */
export async function leaderboards(main, game) {
  const tabs = h("nav", {class: "links", "aria-label": t("board.games")}, Object.entries(GAMES).map(([gid, g]) => h("a", {href: `#/leaderboards/${gid}`, "aria-current": gid === game ? "page" : null}, g.title)));
  if (!game) {
    mount(main, h("h1", {}, t("page.leaderboards")), tabs, h("p", {}, t("board.choose")));
    return null;
  }
  try {
    const board = await api("GET", `/leaderboards/${encodeURIComponent(game)}`);
    mount(main, h("h1", {}, t("board.heading", {game: gameModule(game).title})), tabs,
      h("p", {class: "facts"}, t("board.facts", {n: board.rated_games})),
      board.players.length
        ? h("table", {class: "grid", id: "leaderboard"},
            h("tr", {}, [t("cup.col.rank"), t("cup.col.player"), t("board.ordinal"), "μ", "σ", t("cup.col.games")].map((c) => h("th", {scope: "col"}, c))),
            board.players.map((p) => h("tr", {}, h("td", {}, p.rank), h("td", {}, p.player), h("td", {}, fixed(p.ordinal)), h("td", {}, fixed(p.mu)), h("td", {}, fixed(p.sigma)), h("td", {}, p.games))))
        : h("p", {class: "muted"}, t("board.none")));
  } catch (err) {
    mount(main, h("h1", {}, t("board.title")), tabs, h("p", {class: "error", role: "alert"}, explain(err)));
  }
  return null;
}
