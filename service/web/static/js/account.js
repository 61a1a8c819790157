// Your account on the page: register a handle, keep its player token in this browser, your rating and your games.
import {api, explain, seats} from "./api.js";
import {h, mount} from "./dom.js";
import {GAMES, gameModule} from "./games/index.js";
import {has, t} from "./i18n.js";

const ACCOUNT_KEY = "menagerie:account";
// A player token is `<player id>.<secret>` (service/application/players.py): the id is its first part.
const PLAYER_TOKEN = /^(p-[0-9a-f]{16})\.[0-9a-f]{32}$/;
// The token just registered, shown until "I saved it" is pressed (never again after a reload).
let shownToken = null;

/**
 * The account this browser keeps, `{id, handle, token}`, or null. Kept in localStorage (every tab
 * of this browser plays as it), unlike seat tokens, which belong to one tab.
 */
export function account() {
  try {
    const kept = JSON.parse(localStorage.getItem(ACCOUNT_KEY));
    return kept && PLAYER_TOKEN.test(kept.token) ? kept : null;
  } catch {
    return null;
  }
}

function keep(kept) {
  localStorage.setItem(ACCOUNT_KEY, JSON.stringify(kept));
}

function forget() {
  localStorage.removeItem(ACCOUNT_KEY);
}

/** Who a seat you take is: your account's `{player_token}` when one is kept, else a guest's `{name}`. */
export function sitterAs(name) {
  const mine = account();
  return mine ? {player_token: mine.token} : {name};
}

/** "Playing as <handle>", for the forms that take a seat or a place in place of a name field. */
export function playingAs() {
  const mine = account();
  return mine ? h("p", {class: "playing-as"}, t("account.playing-as", {handle: mine.handle})) : null;
}

/** An account error in words: the handle's refusals by their code, anything else as the API says it. */
function say(err) {
  const key = `account.error.${err.code}`;
  return has(key) ? t(key) : explain(err);
}

/** The lobby's Account panel: register or paste a token; once kept, who you are, your rating and your games. */
export function accountPanel(redraw) {
  const panel = h("section", {class: "panel", id: "account", "aria-labelledby": "account-title"});

  function draw() {
    const mine = account();
    mount(panel, h("h2", {id: "account-title"}, t("account.title")), mine ? signedIn(mine) : signedOut());
  }

  function signedOut() {
    const handle = h("input", {id: "account-handle", required: true, maxlength: 24, autocomplete: "username", "aria-describedby": "account-handle-help"});
    const message = h("p", {class: "error", role: "alert", id: "account-error"});
    const register = h("form", {id: "account-register"},
      h("p", {class: "muted"}, t("account.why")),
      h("div", {class: "field"}, h("label", {for: "account-handle"}, t("account.handle")), handle,
        h("small", {class: "muted", id: "account-handle-help"}, t("account.handle.help"))),
      h("button", {type: "submit", id: "account-register-button"}, t("account.register")), message);
    register.addEventListener("submit", async (e) => {
      e.preventDefault();
      message.textContent = "";
      try {
        const made = await api("POST", "/players", {body: {handle: handle.value.trim()}});
        keep({id: made.id, handle: made.handle, token: made.token});
        shownToken = made.token;
        changed();
      } catch (err) {
        message.textContent = say(err);
      }
    });

    const pasted = h("input", {id: "account-token-input", required: true, autocomplete: "off", spellcheck: false});
    const pasteMessage = h("p", {class: "error", role: "alert"});
    const paste = h("form", {id: "account-paste"},
      h("div", {class: "field"}, h("label", {for: "account-token-input"}, t("account.saved-token")), pasted),
      h("button", {type: "submit", class: "secondary", id: "account-paste-button"}, t("account.use-token")), pasteMessage);
    paste.addEventListener("submit", async (e) => {
      e.preventDefault();
      const token = pasted.value.trim();
      const match = token.match(PLAYER_TOKEN);
      if (!match) {
        pasteMessage.textContent = t("account.error.bad-token");
        return;
      }
      try {
        const found = await api("GET", `/players/${encodeURIComponent(match[1])}`);
        keep({id: found.id, handle: found.handle, token});
        changed();
      } catch (err) {
        pasteMessage.textContent = err.status === 404 ? t("account.error.no-account") : explain(err);
      }
    });
    return [register, h("details", {}, h("summary", {}, t("account.have-token")), paste)];
  }

  function signedIn(mine) {
    const fresh = shownToken === mine.token;
    const rating = h("div", {id: "your-rating"}, h("p", {class: "muted"}, t("lobby.loading")));
    const games = h("div", {id: "your-seats"});
    showRating(rating, mine);
    showSeats(games);
    return [
      h("p", {id: "playing-as"}, t("account.playing-as", {handle: mine.handle}), " ",
        h("button", {type: "button", class: "secondary", id: "sign-out", onclick: signOut}, t("account.sign-out"))),
      fresh
        ? h("div", {class: "token-once", id: "account-token-once", role: "status"},
            h("p", {}, h("strong", {}, t("account.token-once"))),
            h("p", {}, h("code", {id: "account-token"}, mine.token)),
            h("button", {type: "button", class: "secondary", id: "account-token-saved", onclick: () => {
              shownToken = null;
              draw();
            }}, t("account.token-saved")))
        : null,
      h("h3", {}, t("account.rating")), rating,
      h("h3", {}, t("account.games")), games,
    ];
  }

  function signOut() {
    if (!window.confirm(t("account.sign-out.confirm"))) return;
    forget();
    shownToken = null;
    changed();
  }

  // The new-game form and others read the account when drawn: the whole lobby is drawn again.
  function changed() {
    if (redraw) redraw();
    else draw();
  }

  draw();
  return panel;
}

/** Your line of each game type's leaderboard (by your account's id), or that you are not rated yet. */
async function showRating(root, mine) {
  const boards = await Promise.all(Object.keys(GAMES).map(async (game) => {
    try {
      const board = await api("GET", `/leaderboards/${encodeURIComponent(game)}?limit=10000`);
      return [game, board.players.find((p) => p.player_id === mine.id) || null];
    } catch (err) {
      return [game, err];
    }
  }));
  const rated = boards.filter(([, entry]) => entry && !(entry instanceof Error));
  const failed = boards.find(([, entry]) => entry instanceof Error);
  mount(root,
    rated.length
      ? h("table", {class: "grid", id: "your-rating-table"},
          h("tr", {}, [t("account.col.game"), t("cup.col.rank"), t("board.ordinal"), t("cup.col.games")].map((c) => h("th", {scope: "col"}, c))),
          rated.map(([game, p]) => h("tr", {"data-game": game},
            h("td", {}, h("a", {href: `#/leaderboards/${game}`}, gameModule(game).title)),
            h("td", {}, p.rank), h("td", {}, p.ordinal.toFixed(2)), h("td", {}, p.games))))
      : h("p", {class: "muted"}, t("account.not-rated")),
    failed ? h("p", {class: "error", role: "alert"}, explain(failed[1])) : null);
}

/** The seats this tab keeps (api.js `seats`), each with its game's status. */
async function showSeats(root) {
  const kept = seats.all();
  if (!kept.length) {
    mount(root, h("p", {class: "muted"}, t("account.no-games")));
    return;
  }
  const rows = await Promise.all(kept.map(async ([id, seat]) => {
    let game = null;
    try {
      game = await api("GET", `/games/${encodeURIComponent(id)}`);
    } catch {
      // A game this server no longer knows (or cannot tell now): listed without a status.
    }
    const status = game ? t(`status.${game.status}`) : t("account.status-unknown");
    return h("li", {"data-game": id},
      h("strong", {}, game ? gameModule(game.game).title : id), " ",
      h("span", {class: "muted"}, `${id} · ${t("lobby.seat", {number: seat.seat + 1})} · `),
      h("span", {class: "status"}, status),
      h("span", {class: "links"}, h("a", {href: `#/game/${id}`}, game && game.status === "finished" ? t("lobby.final-table") : t("lobby.play"))));
  }));
  mount(root, h("ul", {class: "game-list"}, rows));
}
