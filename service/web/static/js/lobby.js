// The lobby: game types and their options, a new game with you, bots and open seats, joining by link, the games.
import {api, explain, newKey, seats} from "./api.js";
import {seatName} from "./context.js";
import {h, mount, pretty} from "./dom.js";
import {gameModule} from "./games/index.js";

const NAME_KEY = "menagerie:name";

/** Draw the lobby. */
export async function lobby(main) {
  mount(main, h("h1", {}, "Lobby"), h("p", {class: "muted"}, "Loading games…"));
  let types;
  try {
    types = (await api("GET", "/game-types")).game_types;
  } catch (err) {
    mount(main, h("h1", {}, "Lobby"), h("p", {class: "error", role: "alert"}, explain(err)));
    return null;
  }
  const list = h("div", {id: "games"});
  const cups = h("div", {id: "tournaments"});
  mount(
    main,
    h("h1", {}, "Lobby"),
    h("div", {class: "columns"}, newGameForm(types), h("div", {}, joinForm(), findForms(types))),
    h("section", {class: "panel"}, h("h2", {}, "Games"),
      h("button", {type: "button", class: "secondary", onclick: () => loadGames(list)}, "Refresh"), list),
    h("section", {class: "panel"}, h("h2", {}, "Tournaments"), cups),
  );
  await Promise.all([loadGames(list), loadTournaments(cups)]);
  return null;
}

function newGameForm(types) {
  const message = h("p", {class: "error", role: "alert", "aria-live": "assertive"});
  const typeSelect = h("select", {id: "game-type", name: "game"}, types.map((t) => h("option", {value: t.id}, t.title)));
  const nameInput = h("input", {id: "your-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname", value: localStorage.getItem(NAME_KEY) || "Player"});
  const countInput = h("input", {id: "seat-count", type: "number", name: "seats"});
  const seatList = h("ol", {class: "seat-list"});
  const options = h("div", {class: "options"});
  // The move clock every game type takes (openapi.yaml, Clock): a human seat's time a move, then a stand-in moves.
  const clockSelect = h("select", {id: "option-clock", name: "clock", "aria-describedby": "option-clock-help"},
    CLOCKS.map(([seconds, text]) => h("option", {value: String(seconds)}, text)));
  // One key per game to create: a retried submit after a lost answer creates it once.
  let createKey = newKey();
  const typeOf = () => types.find((t) => t.id === typeSelect.value);

  function drawSeats() {
    const t = typeOf();
    const n = Math.max(t.min_seats, Math.min(t.max_seats, Number(countInput.value) || t.min_seats));
    const previous = [...seatList.querySelectorAll("select")].map((s) => s.value);
    mount(seatList, Array.from({length: n}, (_, i) => {
      const id = `seat-${i}`;
      const select = h("select", {id, class: "seat-kind"},
        h("option", {value: "you"}, "You"),
        t.bots.map((b) => h("option", {value: `bot:${b}`}, `Bot: ${b}`)),
        h("option", {value: "open"}, "Open seat (someone joins by link)"));
      select.value = previous[i] || (i === 0 ? "you" : `bot:${t.bots.includes("heuristic") ? "heuristic" : t.bots[0]}`);
      return h("li", {}, h("label", {for: id}, `Seat ${i + 1}`), select);
    }));
  }

  function drawType() {
    const t = typeOf();
    countInput.min = t.min_seats;
    countInput.max = t.max_seats;
    if (!countInput.value || countInput.value < t.min_seats || countInput.value > t.max_seats) countInput.value = t.min_seats;
    drawSeats();
    mount(options, t.options.length ? h("h3", {}, "Options") : null, t.options.map(optionField));
  }

  typeSelect.addEventListener("change", drawType);
  countInput.addEventListener("input", drawSeats);
  drawType();

  const form = h("form", {class: "panel", id: "new-game", "aria-labelledby": "new-game-title"},
    h("h2", {id: "new-game-title"}, "New game"),
    h("div", {class: "field"}, h("label", {for: "game-type"}, "Game"), typeSelect),
    h("div", {class: "field"}, h("label", {for: "your-name"}, "Your name"), nameInput),
    h("div", {class: "field"}, h("label", {for: "seat-count"}, "Seats"), countInput),
    seatList,
    h("div", {class: "field"}, h("label", {for: "option-clock"}, "Move clock"), clockSelect,
      h("small", {class: "muted", id: "option-clock-help"}, "Time a player has for each move; when it runs out, a stand-in bot makes that one move.")),
    options,
    h("button", {type: "submit", id: "create-game"}, "Create game"), message);

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const t = typeOf();
    const name = nameInput.value.trim() || "Player";
    localStorage.setItem(NAME_KEY, name);
    const kinds = [...seatList.querySelectorAll("select")].map((s) => s.value);
    let human = 0;
    // Only the first "You" seat is yours here; further ones are seats for friends, named after you with a number.
    const seatSpecs = kinds.map((k) => (k === "you" ? {name: human++ ? `${name} ${human}` : name} : k === "open" ? {} : {bot: k.slice(4)}));
    let body;
    try {
      body = {game: t.id, seats: seatSpecs, options: readOptions(t, options)};
      if (Number(clockSelect.value)) body.options.clock = {move_s: Number(clockSelect.value)};
    } catch (err) {
      message.textContent = err.message;
      return;
    }
    try {
      const created = await api("POST", "/games", {body, key: createKey});
      createKey = newKey();
      const mine = created.seats[0];
      if (mine) seats.put(created.id, {token: mine.token, seat: mine.seat, name: mine.name});
      const others = created.seats.slice(1).map((s) => ({seat: s.seat, name: s.name, link: `${location.origin}/#/seat/${created.id}/${s.token}`}));
      if (others.length) sessionStorage.setItem(`menagerie:links:${created.id}`, JSON.stringify(others));
      location.hash = mine ? `#/game/${created.id}` : `#/game/${created.id}`;
    } catch (err) {
      if (err.status !== 0) createKey = newKey(); // refused: a changed form is a new request
      message.textContent = explain(err);
    }
  });
  return form;
}

const CLOCKS = [[0, "None"], [30, "30 seconds"], [60, "1 minute"], [120, "2 minutes"], [300, "5 minutes"], [86400, "1 day (correspondence)"]];

function optionField(option) {
  const id = `option-${option.name}`;
  const help = h("small", {class: "muted", id: `${id}-help`}, option.description);
  if (option.type === "bool") {
    return h("div", {class: "field check"}, h("input", {type: "checkbox", id, "data-option": option.name, checked: !!option.default, "aria-describedby": `${id}-help`}),
      h("label", {for: id}, pretty(option.name)), help);
  }
  if (option.type === "int") {
    return h("div", {class: "field"}, h("label", {for: id}, pretty(option.name)),
      h("input", {type: "number", id, "data-option": option.name, value: option.default, min: option.minimum ?? null, "aria-describedby": `${id}-help`}), help);
  }
  if (option.type === "list" && option.choices) {
    return h("fieldset", {class: "field", "data-option": option.name}, h("legend", {}, pretty(option.name)), help,
      h("div", {class: "choices"}, option.choices.map((c) => h("label", {class: "check"}, h("input", {type: "checkbox", value: c, checked: (option.default || []).includes(c)}), ` ${pretty(c)}`))));
  }
  return h("p", {class: "muted"}, `${pretty(option.name)}: the default (${option.description})`);
}

function readOptions(t, root) {
  const out = {};
  for (const option of t.options) {
    const el = root.querySelector(`[data-option="${option.name}"]`);
    if (!el) continue;
    let value;
    if (option.type === "bool") value = el.checked;
    else if (option.type === "int") {
      value = Number(el.value);
      if (!Number.isInteger(value)) throw new Error(`${pretty(option.name)} must be a whole number`);
    } else if (option.type === "list") value = [...el.querySelectorAll("input:checked")].map((i) => i.value);
    else continue;
    if (JSON.stringify(value) !== JSON.stringify(option.default)) out[option.name] = value;
  }
  return out;
}

function gameIdFrom(text) {
  const match = String(text).trim().match(/([0-9a-f]{16})/);
  return match ? match[1] : null;
}

function joinForm() {
  const input = h("input", {id: "join-link", placeholder: "https://…/#/join/0123456789abcdef", autocomplete: "off"});
  const message = h("p", {class: "error", role: "alert"});
  const form = h("form", {class: "panel"}, h("h2", {}, "Join or watch a game"),
    h("div", {class: "field"}, h("label", {for: "join-link"}, "Game link or id"), input),
    h("div", {class: "buttons"},
      h("button", {type: "submit"}, "Join an open seat"),
      h("button", {type: "button", class: "secondary", onclick: () => go("game")}, "Watch")),
    message);
  function go(kind) {
    const id = gameIdFrom(input.value);
    if (!id) {
      message.textContent = "That is not a game link or id (16 hexadecimal characters).";
      return;
    }
    location.hash = `#/${kind}/${id}`;
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    go("join");
  });
  return form;
}

function findForms(types) {
  const input = h("input", {id: "tournament-id", placeholder: "t-0123456789abcdef", autocomplete: "off"});
  const form = h("form", {class: "panel"}, h("h2", {}, "Tournaments and ratings"),
    h("div", {class: "field"}, h("label", {for: "tournament-id"}, "Tournament id"), input),
    h("button", {type: "submit", class: "secondary"}, "Open tournament"),
    h("p", {}, "Leaderboards: ", types.map((t, i) => [i ? " · " : "", h("a", {href: `#/leaderboards/${t.id}`}, t.title)])));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const id = input.value.trim().replace(/^.*#\/tournament\//, "");
    if (id) location.hash = `#/tournament/${encodeURIComponent(id)}`;
  });
  return form;
}

async function loadGames(list) {
  try {
    const {games} = await api("GET", "/games");
    const groups = {waiting: [], active: [], finished: []};
    for (const g of games) (groups[g.status] || groups.active).push(g);
    mount(list,
      gameTable("Waiting for players", groups.waiting),
      gameTable("In play", groups.active),
      gameTable("Finished", groups.finished));
  } catch (err) {
    mount(list, h("p", {class: "error", role: "alert"}, explain(err)));
  }
}

async function loadTournaments(list) {
  try {
    const {tournaments} = await api("GET", "/tournaments?limit=20");
    const shown = tournaments.filter((t) => t.status !== "finished").concat(tournaments.filter((t) => t.status === "finished").slice(0, 5));
    mount(list, shown.length
      ? h("ul", {class: "game-list"}, shown.map((t) => h("li", {},
        h("a", {href: `#/tournament/${encodeURIComponent(t.id)}`}, `${gameModule(t.game).title} tournament`), " ",
        h("span", {class: "muted"}, `${t.status === "registering" ? "open for registration" : t.status === "active" ? `round ${t.round} of ${t.planned_rounds}` : "finished"} · ${t.players} players`))))
      : h("p", {class: "muted"}, "None yet. An organiser creates one through the API (see the README)."));
  } catch (err) {
    mount(list, h("p", {class: "error", role: "alert"}, explain(err)));
  }
}

function gameTable(title, games) {
  if (!games.length) return h("div", {}, h("h3", {}, title), h("p", {class: "muted"}, "None."));
  return h("div", {}, h("h3", {}, title),
    h("ul", {class: "game-list"}, games.map((g) => {
      const mine = seats.get(g.id);
      const open = g.seats.some((s) => !s.filled);
      return h("li", {"data-game": g.id},
        h("strong", {}, gameModule(g.game).title), " ",
        h("span", {class: "muted"}, g.id), " · ",
        g.seats.map((s) => seatName(s, mine ? mine.seat : null)).join(", "),
        h("span", {class: "links"},
          g.status !== "finished" ? h("a", {href: `#/game/${g.id}`}, mine ? "Play" : "Watch") : null,
          open && !mine ? h("a", {href: `#/join/${g.id}`}, "Join") : null,
          g.status === "finished" ? h("a", {href: `#/game/${g.id}`}, "Final table") : null,
          g.status === "finished" ? h("a", {href: `#/replay/${g.id}`}, "Replay") : null));
    })));
}

/** Join an open seat of a game by its link: ask for a name, take the seat, go to the table. */
export async function joinScreen(main, id) {
  const mine = seats.get(id);
  if (mine) {
    location.hash = `#/game/${id}`;
    return null;
  }
  const nameInput = h("input", {id: "join-name", required: true, maxlength: 40, value: localStorage.getItem(NAME_KEY) || ""});
  const message = h("p", {class: "error", role: "alert"});
  const form = h("form", {class: "panel", id: "join-form"}, h("h1", {}, "Join a game"),
    h("p", {}, "Game ", h("code", {}, id)),
    h("div", {class: "field"}, h("label", {for: "join-name"}, "Your name"), nameInput),
    h("button", {type: "submit", id: "join-button"}, "Take a seat"), " ", h("a", {href: `#/game/${id}`}, "Just watch"), message);
  let joinKey = newKey();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = nameInput.value.trim();
    if (!name) {
      message.textContent = "Enter a name.";
      return;
    }
    localStorage.setItem(NAME_KEY, name);
    try {
      const taken = await api("POST", `/games/${id}/join`, {body: {name}, key: joinKey});
      seats.put(id, {token: taken.token, seat: taken.seat, name});
      location.hash = `#/game/${id}`;
    } catch (err) {
      if (err.status !== 0) joinKey = newKey();
      message.textContent = explain(err);
    }
  });
  mount(main, form);
  nameInput.focus();
  return null;
}
