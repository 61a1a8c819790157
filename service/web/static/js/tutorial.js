// A guided first game: a real, unrated game against bots, with a few steps of explanation laid over the
// table. Only words live here: what may be picked is the API's legal actions, as at any table (choose.js).
import {api, entropyFor, explain, keepSeatReceipt, newKey, seats} from "./api.js";
import {h, mount} from "./dom.js";
import {GAMES, gameModule} from "./games/index.js";
import {has, t} from "./i18n.js";

const DONE_KEY = "menagerie:tutorial-done";
const GAME_KEY = (id) => `menagerie:tutorial:${id}`;

// The steps, in order. `until` says what moves a step on by itself (else its Next button does).
const STEPS = [
  {id: "welcome"},
  {id: "hand"},
  {id: "legal"},
  {id: "pick", until: "your-move"},
  {id: "scoring"},
  {id: "play-on", until: "end"},
  {id: "end"},
];

/** The titles whose guided game this browser has finished or skipped: {game: "done" | "skipped"}. */
export function tutorialsDone() {
  try {
    return JSON.parse(localStorage.getItem(DONE_KEY)) || {};
  } catch {
    return {};
  }
}

function markDone(game, how) {
  try {
    localStorage.setItem(DONE_KEY, JSON.stringify({...tutorialsDone(), [game]: how}));
  } catch {
    // A browser refusing storage offers the guide again next time: no harm done.
  }
}

/** The lobby's panel: a guided first game for each title, marked once done. */
export function tutorialPanel() {
  const done = tutorialsDone();
  return h("section", {class: "panel", id: "tutorials", "aria-labelledby": "tutorials-title"},
    h("h2", {id: "tutorials-title"}, t("guide.lobby.title")),
    h("p", {class: "muted"}, t("guide.lobby.why")),
    h("ul", {class: "game-list"}, Object.entries(GAMES).map(([game, module]) => h("li", {"data-game": game},
      h("a", {href: `#/learn/${game}`}, module.title), done[game] ? h("span", {class: "tag you"}, t(`guide.lobby.${done[game]}`)) : null))));
}

/** The start screen of a title's guided game (#/learn/<game>): what will happen, then a real game vs bots. */
export async function learn(main, game) {
  const module = GAMES[game];
  if (!module) {
    mount(main, h("h1", {}, t("guide.title", {game})), h("p", {class: "error", role: "alert"}, t("guide.unknown")), h("a", {href: "#/"}, t("page.back")));
    return null;
  }
  const message = h("p", {class: "error", role: "alert"});
  const key = newKey();
  const start = h("button", {type: "button", id: "guide-start", onclick: async () => {
    start.disabled = true;
    message.textContent = "";
    try {
      const types = (await api("GET", "/game-types")).game_types;
      const type = types.find((x) => x.id === game);
      const bot = type.bots.includes("heuristic") ? "heuristic" : type.bots[0];
      const sent = entropyFor(key);
      // A guest seat and no clock: an unrated game, the fewest seats the game takes, bots in the others.
      const you = {name: localStorage.getItem("menagerie:name") || t("lobby.default-name"), entropy: sent};
      const body = {game, seats: [you, ...Array.from({length: type.min_seats - 1}, () => ({bot}))]};
      const created = await api("POST", "/games", {body, key});
      const mine = created.seats[0];
      seats.put(created.id, {token: mine.token, seat: mine.seat, name: mine.name});
      if (!keepSeatReceipt(created.id, mine.receipt, sent, created.dealing)) {
        message.textContent = t("seat.entropy-missing");
        return;
      }
      sessionStorage.setItem(GAME_KEY(created.id), JSON.stringify({game, step: 0}));
      location.hash = `#/game/${created.id}`;
    } catch (err) {
      message.textContent = explain(err);
      start.disabled = false;
    }
  }}, t("guide.start"));
  mount(main, h("section", {class: "panel", id: "guide-intro"},
    h("h1", {}, t("guide.title", {game: module.title})),
    h("p", {}, t(`guide.${game}.welcome`)),
    h("p", {}, t("guide.intro")),
    h("div", {class: "buttons"}, start, h("a", {href: "#/"}, t("page.back"))), message));
  return null;
}

/**
 * The guide over a table, when this tab started that game as a guided one; else null. The table calls
 * `update(view, {yourTurn, move})` after each drawing and `stop()` when it is left.
 */
export function guide(gameId, main) {
  let kept;
  try {
    kept = JSON.parse(sessionStorage.getItem(GAME_KEY(gameId)));
  } catch {
    kept = null;
  }
  if (!kept || !GAMES[kept.game]) return null;
  const {game} = kept;
  const el = h("aside", {class: "panel guide", id: "guide", "aria-labelledby": "guide-title"});
  let step = kept.step;
  let since = -1; // the version the "pick" step began at: a move of yours after it moves the guide on
  let last = null;

  function save() {
    sessionStorage.setItem(GAME_KEY(gameId), JSON.stringify({game, step}));
  }

  function go(next) {
    step = Math.min(next, STEPS.length - 1);
    since = last ? last.view.version : -1;
    save();
    draw();
    const title = el.querySelector("#guide-title");
    if (title) title.focus({preventScroll: false});
  }

  function finish(how) {
    markDone(game, how);
    sessionStorage.removeItem(GAME_KEY(gameId));
    step = STEPS.length;
    delete main.dataset.guide;
    el.remove();
  }

  function words(id) {
    const own = `guide.${game}.${id}`;
    return has(own) ? t(own) : t(`guide.${id}`);
  }

  function draw() {
    if (step >= STEPS.length) return;
    const current = STEPS[step];
    main.dataset.guide = current.id;
    const view = last && last.view;
    const waiting = current.id === "legal" && last && !last.yourTurn && view.status === "active";
    mount(el,
      h("p", {class: "muted guide-count"}, t("guide.step", {n: step + 1, of: STEPS.length})),
      h("h2", {id: "guide-title", tabindex: "-1"}, t(`guide.step.${current.id}`)),
      h("p", {id: "guide-text"}, words(current.id)),
      waiting ? h("p", {class: "muted"}, t("guide.wait")) : null,
      h("div", {class: "buttons"},
        current.id === "end"
          ? h("button", {type: "button", id: "guide-done", onclick: () => finish("done")}, t("guide.done"))
          : current.until ? null : h("button", {type: "button", id: "guide-next", onclick: () => go(step + 1)}, t("guide.next")),
        current.id === "end" ? null : h("button", {type: "button", class: "secondary", id: "guide-skip", onclick: () => finish("skipped")}, t("guide.skip"))));
  }

  /** Move on by what happened at the table (`info.events`, the recent log): your move made, the game over. */
  function update(view, info) {
    if (step >= STEPS.length) return;
    last = {view, ...info};
    if (since < 0) since = view.version; // a step resumed after a reload counts from what is on the table now
    const current = STEPS[step];
    if (view.status === "finished" && current.id !== "end" && step >= 3) {
      go(STEPS.findIndex((s) => s.id === "end"));
      return;
    }
    if (current.until === "your-move" && info.events.some((e) => e.actor === view.you && e.seq > since)) {
      go(step + 1);
      return;
    }
    if (current.until === "end" && view.status === "finished") {
      go(step + 1);
      return;
    }
    draw();
  }

  draw();
  return {
    el,
    update,
    stop() {
      delete main.dataset.guide;
    },
  };
}

/** The link under "How to play" to a title's guided game. */
export function guideLink(game) {
  return GAMES[game] ? h("p", {}, h("a", {href: `#/learn/${game}`, id: "guide-link"}, t("guide.link", {game: gameModule(game).title}))) : null;
}
