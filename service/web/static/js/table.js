// The table: your seat's view (or a spectator's), the legal actions as buttons, live by subscribe().
import {api, explain, seats, subscribe} from "./api.js";
import {contextFor, eventList, resultPanel} from "./context.js";
import {h, mount} from "./dom.js";
import {gameModule} from "./games/index.js";

const RECENT = 12;
// Above this many actions the groups fold (Life is Life can offer hundreds of trades).
const FLAT_LIMIT = 16;

/** Draw a game's table and keep it live; return the function that stops the feed. */
export async function table(main, id) {
  let mine = seats.get(id);
  const status = h("p", {id: "message", class: "message", role: "status", "aria-live": "polite"});
  const alert = h("p", {id: "error", class: "error", role: "alert"});
  const root = h("div", {id: "table"});
  mount(main, alert, root, status);
  let view;
  try {
    view = await api("GET", `/games/${id}`, {token: mine && mine.token});
  } catch (err) {
    if (mine && (err.status === 401 || err.status === 403)) {
      // A stale token (e.g. the server restarted with an empty store): watch instead of failing.
      seats.forget(id);
      mine = null;
      alert.textContent = explain(err);
      view = await api("GET", `/games/${id}`).catch(() => null);
    }
    if (!view) {
      mount(main, h("h1", {}, "Game"), h("p", {class: "error", role: "alert"}, explain(err)), h("a", {href: "#/"}, "Back to the lobby"));
      return null;
    }
  }
  const module = gameModule(view.game);
  const token = mine ? mine.token : null;
  let events = [];
  let loading = 0;
  let busy = false;

  const say = (text) => {
    alert.textContent = text;
  };

  async function refresh() {
    const ticket = ++loading;
    try {
      const fresh = await api("GET", `/games/${id}`, {token});
      if (ticket === loading && fresh.version >= view.version) {
        view = fresh;
        draw();
      }
    } catch (err) {
      say(explain(err));
    }
  }

  async function play(action) {
    if (busy) return;
    busy = true;
    say("");
    status.textContent = "Sending your move…";
    try {
      await api("POST", `/games/${id}/actions`, {token, body: {action, expected_version: view.version}});
      status.textContent = "Move played.";
    } catch (err) {
      say(explain(err));
      status.textContent = "";
    } finally {
      busy = false;
    }
    await refresh();
    stop.poke();
  }

  function draw() {
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    const ctx = contextFor(view, module, say);
    const you = view.you;
    const yourTurn = you !== null && view.legal_actions.length > 0;
    const waitingFor = view.to_act.map((seat) => ctx.name(seat)).join(", ");
    let turn;
    if (view.status === "finished") turn = "The game is over.";
    else if (view.status === "waiting") turn = "Waiting for players to join.";
    else if (yourTurn) turn = view.to_act.length > 1 ? `Your move (also waiting for: ${view.to_act.filter((s) => s !== you).map(ctx.name).join(", ") || "nobody else"})` : "Your turn.";
    else turn = waitingFor ? `Waiting for ${waitingFor}.` : "The game is working…";
    mount(
      root,
      h("header", {class: "table-head"},
        h("h1", {}, module.title, " ", h("small", {class: "muted"}, id)),
        h("p", {class: "facts"},
          you === null ? h("span", {class: "tag", id: "spectator"}, "Spectating") : h("span", {class: "tag you"}, `You: ${ctx.name(you)}`),
          ` · ${view.status} · event ${view.version}`),
        h("p", {id: "turn", class: `turn ${yourTurn ? "yours" : ""}`, "data-status": view.status, "aria-live": "polite"}, turn),
        h("nav", {class: "links", "aria-label": "Game"},
          h("a", {href: "#/"}, "Lobby"),
          view.status === "finished" ? h("a", {href: `#/replay/${id}`, id: "replay-link"}, "Replay and audit") : null,
          h("a", {href: `/games/${id}/export`, download: `${id}.ndjson`}, "Export log"))),
      invitePanel(view),
      resultPanel(view, ctx),
      yourTurn ? actionsPanel(view, module, ctx, play) : null,
      h("section", {class: "panel"}, h("h2", {}, "Table"), module.board(view, ctx)),
      eventList(events.slice(-RECENT), ctx),
    );
    const again = focused && root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }

  function invitePanel(v) {
    const open = v.seats.filter((s) => !s.filled);
    const links = JSON.parse(sessionStorage.getItem(`menagerie:links:${id}`) || "[]");
    if (!open.length && !(links.length && v.status !== "finished")) return null;
    const joinUrl = `${location.origin}/#/join/${id}`;
    return h("section", {class: "panel invite"}, h("h2", {}, "Invite"),
      open.length ? h("p", {}, `${open.length} open seat${open.length > 1 ? "s" : ""}. Send this link: `, h("a", {href: joinUrl, id: "join-url"}, joinUrl)) : null,
      links.map((l) => h("p", {}, `Seat link for ${l.name}: `, h("a", {href: l.link}, "open seat " + (l.seat + 1)))));
  }

  draw();
  // The recent log: the last few events before now, then the live feed from here.
  const start = Math.max(0, view.version - RECENT);
  const stop = subscribe(id, start, (fresh) => {
    events = events.concat(fresh).slice(-RECENT * 4);
    if (fresh[fresh.length - 1].seq > view.version) refresh();
    else draw();
  }, {token});
  return stop;
}

/** The legal actions as buttons, grouped; a game may draw a form for a templated action. */
function actionsPanel(view, module, ctx, play) {
  const groups = new Map();
  for (const action of view.legal_actions) {
    const key = module.group(action, view);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(action);
  }
  const fold = view.legal_actions.length > FLAT_LIMIT;
  const blocks = [...groups.entries()].map(([title, actions], index) => {
    const buttons = h("div", {class: "buttons"}, actions.map((action) => {
      const custom = module.custom ? module.custom(action, view, ctx, play) : null;
      const button = h("button", {type: "button", class: "action", "data-key": JSON.stringify(action), onclick: () => play(action)}, module.label(action, view, ctx));
      return custom ? [custom, button] : button;
    }));
    if (!fold) return h("div", {class: "group"}, h("h3", {}, title), buttons);
    return h("details", {class: "group", open: index === 0}, h("summary", {}, `${title} (${actions.length})`), buttons);
  });
  return h("section", {class: "panel actions", id: "actions", "aria-label": "Your moves"}, h("h2", {}, "Your move"), blocks);
}
