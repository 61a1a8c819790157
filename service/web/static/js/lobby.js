// The lobby: game types and their options, a new game with you, bots and open seats, joining by link, the games.
import {account, accountPanel, playingAs, sitterAs} from "./account.js";
import {api, entropyFor, explain, keepSeatReceipt, newKey, seats} from "./api.js";
import {seatName} from "./context.js";
import {h, mount, pretty} from "./dom.js";
import {gameModule} from "./games/index.js";
import {cap, has, t} from "./i18n.js";
import {tutorialPanel} from "./tutorial.js";

const NAME_KEY = "menagerie:name";

/** Draw the lobby. */
export async function lobby(main) {
  mount(main, h("h1", {}, t("lobby.title")), h("p", {class: "muted"}, t("lobby.loading")));
  let types;
  try {
    types = (await api("GET", "/game-types")).game_types;
  } catch (err) {
    mount(main, h("h1", {}, t("lobby.title")), h("p", {class: "error", role: "alert"}, explain(err)));
    return null;
  }
  const list = h("div", {id: "games"});
  const cups = h("div", {id: "tournaments"});
  mount(
    main,
    h("h1", {}, t("lobby.title")),
    accountPanel(() => lobby(main)),
    tutorialPanel(),
    h("div", {class: "columns"}, newGameForm(types), h("div", {}, joinForm(), findForms(types))),
    h("section", {class: "panel"}, h("h2", {}, t("lobby.games")),
      h("button", {type: "button", class: "secondary", onclick: () => loadGames(list)}, t("lobby.refresh")), list),
    h("section", {class: "panel"}, h("h2", {}, t("lobby.tournaments")), cups,
      h("p", {}, h("a", {href: "#/organise", id: "organise-link"}, t("org.new")))),
  );
  await Promise.all([loadGames(list), loadTournaments(cups)]);
  return null;
}

function newGameForm(types) {
  const message = h("p", {class: "error", role: "alert", "aria-live": "assertive"});
  const typeSelect = h("select", {id: "game-type", name: "game"}, types.map((type) => h("option", {value: type.id}, gameModule(type.id).title || type.title)));
  const nameInput = h("input", {id: "your-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname", value: localStorage.getItem(NAME_KEY) || t("lobby.default-name")});
  const countInput = h("input", {id: "seat-count", type: "number", name: "seats"});
  const seatList = h("ol", {class: "seat-list"});
  const options = h("div", {class: "options"});
  // The move clock every game type takes (openapi.yaml, Clock): a human seat's time a move, then a stand-in moves.
  const clockSelect = h("select", {id: "option-clock", name: "clock", "aria-describedby": "option-clock-help"},
    CLOCKS.map((seconds) => h("option", {value: String(seconds)}, t(`lobby.clock.${seconds}`))));
  // One key per game to create: a retried submit after a lost answer creates it once.
  let createKey = newKey();
  const typeOf = () => types.find((type) => type.id === typeSelect.value);

  function drawSeats() {
    const type = typeOf();
    const n = Math.max(type.min_seats, Math.min(type.max_seats, Number(countInput.value) || type.min_seats));
    const previous = [...seatList.querySelectorAll("select")].map((s) => s.value);
    mount(seatList, Array.from({length: n}, (_, i) => {
      const id = `seat-${i}`;
      const select = h("select", {id, class: "seat-kind"},
        h("option", {value: "you"}, t("lobby.seat.you")),
        type.bots.map((b) => h("option", {value: `bot:${b}`}, t("lobby.seat.bot", {bot: b}))),
        h("option", {value: "open"}, t("lobby.seat.open")));
      select.value = previous[i] || (i === 0 ? "you" : `bot:${type.bots.includes("heuristic") ? "heuristic" : type.bots[0]}`);
      return h("li", {}, h("label", {for: id}, t("lobby.seat", {number: i + 1})), select);
    }));
    drawClockDefault();
  }

  // "No clock" is what the server does only for a game that cannot be rated: one created with your account
  // and no guest (one "You" seat) gets the rated games' clock, which /game-types tells.
  function drawClockDefault() {
    const type = typeOf();
    const yours = [...seatList.querySelectorAll("select")].filter((s) => s.value === "you").length;
    const rated = account() && yours === 1 && type.rated_clock ? type.rated_clock.move_s : 0;
    const none = clockSelect.querySelector('option[value="0"]');
    none.textContent = rated ? t("lobby.clock.rated", {time: has(`lobby.clock.${rated}`) ? t(`lobby.clock.${rated}`) : t("table.clock", {n: rated})}) : t("lobby.clock.0");
    none.dataset.moveS = String(rated);
  }

  function drawType() {
    const type = typeOf();
    countInput.min = type.min_seats;
    countInput.max = type.max_seats;
    if (!countInput.value || countInput.value < type.min_seats || countInput.value > type.max_seats) countInput.value = type.min_seats;
    drawSeats();
    mount(options, type.options.length ? h("h3", {}, t("lobby.options")) : null, type.options.map((option) => optionField(type.id, option)));
  }

  typeSelect.addEventListener("change", drawType);
  countInput.addEventListener("input", drawSeats);
  seatList.addEventListener("change", drawClockDefault);
  drawType();

  const form = h("form", {class: "panel", id: "new-game", "aria-labelledby": "new-game-title"},
    h("h2", {id: "new-game-title"}, t("lobby.new-game")),
    h("div", {class: "field"}, h("label", {for: "game-type"}, t("lobby.game")), typeSelect),
    // With an account kept, your seat is the account's: its handle names it, not a typed name.
    account() ? playingAs() : h("div", {class: "field"}, h("label", {for: "your-name"}, t("lobby.your-name")), nameInput),
    h("div", {class: "field"}, h("label", {for: "seat-count"}, t("lobby.seats")), countInput),
    seatList,
    h("div", {class: "field"}, h("label", {for: "option-clock"}, t("lobby.clock")), clockSelect,
      h("small", {class: "muted", id: "option-clock-help"}, t("lobby.clock.help"))),
    options,
    h("button", {type: "submit", id: "create-game"}, t("lobby.create")), message);

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const type = typeOf();
    const signedIn = account();
    const name = signedIn ? signedIn.handle : nameInput.value.trim() || t("lobby.default-name");
    if (!signedIn) localStorage.setItem(NAME_KEY, name);
    const kinds = [...seatList.querySelectorAll("select")].map((s) => s.value);
    let human = 0;
    // Only the first "You" seat is yours here; further ones are seats for friends, named after you with a number.
    // Your own seat adds entropy to the deal (the friends' seats you name here are yours to hand out),
    // and is your account's when one is kept (the friends' seats are guests then).
    const seatSpecs = kinds.map((k) => (k === "you" ? (human++ ? {name: `${name} ${human}`} : {...sitterAs(name), entropy: entropyFor(createKey)}) : k === "open" ? {} : {bot: k.slice(4)}));
    let body;
    try {
      body = {game: type.id, seats: seatSpecs, options: readOptions(type, options)};
      if (Number(clockSelect.value)) body.options.clock = {move_s: Number(clockSelect.value)};
    } catch (err) {
      message.textContent = err.message;
      return;
    }
    try {
      const sent = entropyFor(createKey);
      const created = await api("POST", "/games", {body, key: createKey});
      createKey = newKey();
      const mine = created.seats[0];
      if (mine) seats.put(created.id, {token: mine.token, seat: mine.seat, name: mine.name});
      // Your seat's SeatTaken is your receipt: it must hold the entropy you sent, or the deal went on without it.
      if (mine && !keepSeatReceipt(created.id, mine.receipt, sent, created.dealing)) {
        message.textContent = t("seat.entropy-missing");
        return;
      }
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

const CLOCKS = [0, 30, 60, 120, 300, 86400];

/** An option's name and help in the page's language (the server's English words for one the tables lack). */
function optionWords(game, option) {
  const key = `option.${game}.${option.name}`;
  return {name: has(key) ? t(key) : pretty(option.name), help: has(`${key}.help`) ? t(`${key}.help`) : option.description};
}

/** A list option's choice in words (the species of a game are named as its rulebook names them). */
function choiceWords(game, choice) {
  const key = `animal.${game}.${choice}`;
  return has(key) ? cap(t(key, {n: 1})) : pretty(choice);
}

/** An option's field in a form (the new-game form's, and the new-tournament form's). */
export function optionField(game, option) {
  const id = `option-${option.name}`;
  const words = optionWords(game, option);
  const help = h("small", {class: "muted", id: `${id}-help`}, words.help);
  if (option.type === "bool") {
    return h("div", {class: "field check"}, h("input", {type: "checkbox", id, "data-option": option.name, checked: !!option.default, "aria-describedby": `${id}-help`}),
      h("label", {for: id}, words.name), help);
  }
  if (option.type === "int") {
    return h("div", {class: "field"}, h("label", {for: id}, words.name),
      h("input", {type: "number", id, "data-option": option.name, value: option.default, min: option.minimum ?? null, "aria-describedby": `${id}-help`}), help);
  }
  if (option.type === "list" && option.choices) {
    return h("fieldset", {class: "field", "data-option": option.name}, h("legend", {}, words.name), help,
      h("div", {class: "choices"}, option.choices.map((c) => h("label", {class: "check"}, h("input", {type: "checkbox", value: c, checked: (option.default || []).includes(c)}), ` ${choiceWords(game, c)}`))));
  }
  return h("p", {class: "muted"}, t("lobby.option-default", {name: words.name, help: words.help}));
}

/** The options a form's fields set away from their defaults; throws an Error in words on a bad number. */
export function readOptions(type, root) {
  const out = {};
  for (const option of type.options) {
    const el = root.querySelector(`[data-option="${option.name}"]`);
    if (!el) continue;
    let value;
    if (option.type === "bool") value = el.checked;
    else if (option.type === "int") {
      value = Number(el.value);
      if (!Number.isInteger(value)) throw new Error(t("lobby.whole-number", {name: optionWords(type.id, option).name}));
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
  const form = h("form", {class: "panel"}, h("h2", {}, t("lobby.join-title")),
    h("div", {class: "field"}, h("label", {for: "join-link"}, t("lobby.join-link")), input),
    h("div", {class: "buttons"},
      h("button", {type: "submit"}, t("lobby.join-open")),
      h("button", {type: "button", class: "secondary", onclick: () => go("game")}, t("lobby.watch"))),
    message);
  function go(kind) {
    const id = gameIdFrom(input.value);
    if (!id) {
      message.textContent = t("lobby.bad-link");
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
  const form = h("form", {class: "panel"}, h("h2", {}, t("lobby.cups-title")),
    h("div", {class: "field"}, h("label", {for: "tournament-id"}, t("lobby.cup-id")), input),
    h("button", {type: "submit", class: "secondary"}, t("lobby.cup-open")),
    h("p", {}, t("lobby.leaderboards"), " ", types.map((type, i) => [i ? " · " : "", h("a", {href: `#/leaderboards/${type.id}`}, gameModule(type.id).title)])));
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
      gameTable(t("lobby.games.waiting"), groups.waiting),
      gameTable(t("lobby.games.active"), groups.active),
      gameTable(t("lobby.games.finished"), groups.finished));
  } catch (err) {
    mount(list, h("p", {class: "error", role: "alert"}, explain(err)));
  }
}

async function loadTournaments(list) {
  try {
    const {tournaments} = await api("GET", "/tournaments?limit=20");
    const shown = tournaments.filter((cup) => cup.status !== "finished").concat(tournaments.filter((cup) => cup.status === "finished").slice(0, 5));
    mount(list, shown.length
      ? h("ul", {class: "game-list"}, shown.map((cup) => h("li", {},
        h("a", {href: `#/tournament/${encodeURIComponent(cup.id)}`}, t("lobby.cup", {game: gameModule(cup.game).title})), " ",
        h("span", {class: "muted"}, `${cup.status === "active" ? t("cup.round-of", {round: cup.round, of: cup.planned_rounds}) : t(`cup.status.${cup.status}`)} · ${t("cup.players", {n: cup.players})}`))))
      : h("p", {class: "muted"}, t("lobby.no-cups")));
  } catch (err) {
    mount(list, h("p", {class: "error", role: "alert"}, explain(err)));
  }
}

function gameTable(title, games) {
  if (!games.length) return h("div", {}, h("h3", {}, title), h("p", {class: "muted"}, t("lobby.none")));
  return h("div", {}, h("h3", {}, title),
    h("ul", {class: "game-list"}, games.map((g) => {
      const mine = seats.get(g.id);
      const open = g.seats.some((s) => !s.filled);
      return h("li", {"data-game": g.id},
        h("strong", {}, gameModule(g.game).title), " ",
        h("span", {class: "muted"}, g.id), " · ",
        g.seats.map((s) => seatName(s, mine ? mine.seat : null)).join(", "),
        h("span", {class: "links"},
          g.status !== "finished" ? h("a", {href: `#/game/${g.id}`}, mine ? t("lobby.play") : t("lobby.watch")) : null,
          open && !mine ? h("a", {href: `#/join/${g.id}`}, t("lobby.join")) : null,
          g.status === "finished" ? h("a", {href: `#/game/${g.id}`}, t("lobby.final-table")) : null,
          g.status === "finished" ? h("a", {href: `#/replay/${g.id}`}, t("lobby.replay")) : null));
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
  const signedIn = account();
  const message = h("p", {class: "error", role: "alert"});
  const form = h("form", {class: "panel", id: "join-form"}, h("h1", {}, t("join.title")),
    h("p", {}, t("join.game"), " ", h("code", {}, id)),
    signedIn ? playingAs() : h("div", {class: "field"}, h("label", {for: "join-name"}, t("lobby.your-name")), nameInput),
    h("button", {type: "submit", id: "join-button"}, t("join.take")), " ", h("a", {href: `#/game/${id}`}, t("join.watch")), message);
  let joinKey = newKey();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = signedIn ? signedIn.handle : nameInput.value.trim();
    if (!name) {
      message.textContent = t("form.enter-name");
      return;
    }
    if (!signedIn) localStorage.setItem(NAME_KEY, name);
    try {
      const sent = entropyFor(joinKey);
      const taken = await api("POST", `/games/${id}/join`, {body: {...sitterAs(name), entropy: sent}, key: joinKey});
      seats.put(id, {token: taken.token, seat: taken.seat, name: taken.name || name});
      // Your seat's SeatTaken is your receipt: in a shared deal it must hold the entropy you sent.
      const {dealing} = await api("GET", `/games/${id}`);
      if (!keepSeatReceipt(id, taken.receipt, sent, dealing)) {
        message.textContent = t("seat.entropy-missing");
        return;
      }
      location.hash = `#/game/${id}`;
    } catch (err) {
      if (err.status !== 0) joinKey = newKey();
      message.textContent = explain(err);
    }
  });
  mount(main, form);
  if (!signedIn) nameInput.focus();
  return null;
}
