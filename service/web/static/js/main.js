// The page's router: each #/ route draws one screen into <main>; leaving a screen stops its live feed.
import {h, mount} from "./dom.js";
import {joinScreen, lobby} from "./lobby.js";
import {replay} from "./replay.js";
import {table} from "./table.js";
import {leaderboards, tournament} from "./tournament.js";
import {organiseScreen} from "./organise.js";
import {learn} from "./tutorial.js";
import {seats} from "./api.js";
import {LANGUAGES, language, onLanguage, setLanguage, t} from "./i18n.js";

const main = document.getElementById("main");
let cleanup = null;
let ticket = 0;

const ROUTES = [
  [/^#?\/?$/, () => lobby(main)],
  [/^#\/game\/([\w-]+)$/, (id) => table(main, id)],
  [/^#\/join\/([\w-]+)$/, (id) => joinScreen(main, id)],
  [/^#\/seat\/([\w-]+)\/([\w.]+)$/, (id, token) => takeSeat(id, token)],
  [/^#\/replay\/([\w-]+)$/, (id) => replay(main, id)],
  [/^#\/tournament\/([\w-]+)$/, (id) => tournament(main, id)],
  // A shared invitation: the code rides in the fragment, which never reaches the server.
  [/^#\/tournament\/([\w-]+)\/code\/([\w%-]+)$/, (id, code) => tournament(main, id, code)],
  [/^#\/organise$/, () => organiseScreen(main)],
  [/^#\/learn\/([\w-]+)$/, (game) => learn(main, game)],
  [/^#\/leaderboards(?:\/([\w-]+))?$/, (game) => leaderboards(main, game)],
];

// A seat link carries its token in the fragment (never sent to the server); keep it and go to the table.
function takeSeat(id, token) {
  const seat = Number(token.split(".")[1]);
  seats.put(id, {token, seat});
  history.replaceState(null, "", `#/game/${id}`);
  return table(main, id);
}

async function route() {
  if (cleanup) cleanup();
  cleanup = null;
  const mine = ++ticket;
  const hash = location.hash || "#/";
  for (const [pattern, screen] of ROUTES) {
    const match = hash.match(pattern);
    if (match) {
      const stop = (await screen(...match.slice(1))) || null;
      // The user may have left while the screen loaded: stop its feed at once.
      if (mine !== ticket) {
        if (stop) stop();
        return;
      }
      cleanup = stop;
      return;
    }
  }
  mount(main, h("p", {}, t("page.not-found"), h("a", {href: "#/"}, t("page.back"))));
}

/** The page frame's own words (index.html marks them with data-i18n) and the language switch's. */
function frameWords() {
  document.documentElement.lang = language();
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
}

// The switch: each language named in itself; a change redraws the screen in place (no reload, no new seat).
const switcher = h("select", {id: "language", "aria-label": t("page.language"), "data-i18n-label": "page.language"},
  LANGUAGES.map(([code, name]) => h("option", {value: code, lang: code}, name)));
switcher.value = language();
switcher.addEventListener("change", () => setLanguage(switcher.value));
document.querySelector("header.top").append(switcher);

onLanguage(() => {
  frameWords();
  switcher.value = language();
  if (cleanup && cleanup.redraw) cleanup.redraw();
  else route();
});

frameWords();
window.addEventListener("hashchange", route);
route();
