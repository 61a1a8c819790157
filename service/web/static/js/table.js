// The table: your seat's view (or a spectator's), moves made by picking then confirming, the log, the clock.
import {sitterAs} from "./account.js";
import {api, entropyFor, explain, keepSeatReceipt, newKey, receipts, seats, subscribe} from "./api.js";
import {Choice} from "./choose.js";
import {announcement, contextFor, eventList, lastMove, resultPanel} from "./context.js";
import {h, mount} from "./dom.js";
import {viewFitter} from "./fit.js";
import {gameModule} from "./games/index.js";
import {t} from "./i18n.js";
import {rulesPanel} from "./rules.js";
import {preferences, prefs, turnSignal} from "./signal.js";
import {guide} from "./tutorial.js";

const RECENT = 16;
const WARN_S = 10;
const RETRY_MS = 1000;
// While a game is in play the table is read this often whatever the feed says (a feed can die quietly).
// A test shortens it through sessionStorage.
const RECHECK_MS = (() => {
  try {
    return Number(sessionStorage.getItem("menagerie:recheck-ms")) || 15000;
  } catch {
    return 15000;
  }
})();

/** Draw a game's table and keep it live; return the function that stops the feed. */
export async function table(main, id) {
  let mine = seats.get(id);
  const status = h("p", {id: "message", class: "message", role: "status"});
  const alert = h("p", {id: "error", class: "error", role: "alert"});
  // Opponents' moves are read out here; it lives outside the redrawn table so a reader hears each once.
  const announce = h("p", {id: "announce", class: "sr-only", "aria-live": "polite"});
  const root = h("div", {id: "table"});
  mount(main, alert, root, status, announce);
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
      mount(main, h("h1", {}, t("table.game")), h("p", {class: "error", role: "alert"}, explain(err)), h("a", {href: "#/"}, t("page.back")));
      return null;
    }
  }
  const module = gameModule(view.game);
  const token = mine ? mine.token : null;
  // A guided first game (tutorial.js): its steps stand above the table, outside the redrawn part.
  const tour = guide(id, main);
  if (tour) root.before(tour.el);
  let events = [];
  let loading = 0;
  let latest = 0; // the newest version heard of: from the feed, an answer or a read
  let busy = false;
  let reading = false; // a catch-up's read is on its way
  let choice = null;
  let choiceFor = null;
  let standIn = null;
  let stopped = false;
  let autoplayed = -1; // the version whose forced move was played for the seat (once, whatever the answer)
  let shownMove; // the last move the table has shown (its seq): a newer one's cards arrive with a transition
  let rematchKey = newKey(); // one key per rematch: a retried click after a lost answer creates it once
  let rematching = false;
  const signal = turnSignal();
  const fitter = viewFitter(root);
  let shown = null; // what the last drawing showed: "yours" (your turn), "finished", or "other"
  let answered = false; // your own move's answer came: the next drawing at your turn shows your hand again

  const say = (text) => {
    alert.textContent = text;
  };

  /** Read the view and show it, unless a later one came meanwhile; return whether it read. */
  async function refresh() {
    const ticket = ++loading;
    try {
      const fresh = await api("GET", `/games/${id}`, {token});
      latest = Math.max(latest, fresh.version);
      if (ticket === loading && fresh.version >= view.version) {
        const moved = fresh.version > view.version;
        view = fresh;
        if (moved) draw(); // a safety read that finds nothing new leaves the table (and a reader's focus) alone
      }
      return true;
    } catch (err) {
      say(explain(err));
      return false;
    }
  }

  /**
   * Bring the table to the newest version heard of. Every answer, feed message, reconnect and
   * safety tick ends here. One read at a time; events that arrive while it is on its way only
   * raise `latest`, so it reads again until the table has caught up: a move's own re-read can
   * no longer leave the table behind events that came during it.
   */
  async function catchUp() {
    if (busy || reading || stopped) return;
    reading = true;
    try {
      while (!stopped && !busy && latest > view.version) {
        const before = view.version;
        if (!(await refresh()) || view.version === before) {
          // Refused or no newer (a read overtaken by a move's answer): try again soon, never in a tight loop.
          setTimeout(catchUp, RETRY_MS);
          break;
        }
      }
    } finally {
      reading = false;
    }
  }

  /** Read the view whatever the feed said (a dead feed says nothing), then catch up. */
  async function recheck() {
    if (busy || reading || stopped || view.status === "finished") return;
    reading = true;
    try {
      await refresh();
    } finally {
      reading = false;
    }
    catchUp();
  }

  async function play(action) {
    if (busy) return;
    // Until the move's answer (or a read) brings the new view no second move may leave: a quick second
    // click would carry the old version and be refused as if someone else had moved first.
    busy = true;
    standIn = null;
    draw();
    say("");
    status.textContent = t("table.sending-move");
    try {
      // The answer holds this seat's view right after the move: no second request to show it.
      const answer = await api("POST", `/games/${id}/actions?view=true`, {token, body: {action, expected_version: view.version}});
      status.textContent = t("table.move-played");
      receipts.add(id, answer.events);
      if (answer.view) adopt(answer.view);
      else await refresh();
    } catch (err) {
      say(explain(err));
      status.textContent = "";
      await refresh();
    }
    busy = false;
    answered = true;
    draw();
    // The pressed Confirm is gone: the turn line says what happens now, and Tab goes on from there into the table.
    if (!document.activeElement || document.activeElement === document.body) {
      const turn = root.querySelector("#turn");
      if (turn) turn.focus({preventScroll: true});
    }
    // What the feed brought beyond the move (a bot's reply, a round's end) while it was on its way.
    catchUp();
    stop.poke();
  }

  /** Show a view that came with an answer, unless the table already shows a later one. */
  function adopt(fresh) {
    ++loading; // a read that left before it may not bring back an older view
    latest = Math.max(latest, fresh.version);
    if (fresh.version >= view.version) view = fresh;
  }

  function currentChoice() {
    const stamp = `${view.version}:${view.legal_actions.length}`;
    if (choiceFor !== stamp) {
      choice = new Choice(module.choices ? module.choices(view) : []);
      choiceFor = stamp;
    }
    return choice;
  }

  function draw() {
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    const ctx = contextFor(view, module, say);
    const you = view.you;
    const yourTurn = you !== null && view.legal_actions.length > 0 && view.status === "active";
    const move = lastMove(events, view, module);
    // The mark stays on the table until the game itself changes it (a new deal, a new round).
    const since = move ? events.filter((e) => e.seq > move.seq && e.command_id !== move.command && typeof e.actor !== "number") : [];
    ctx.marks = move && !since.length ? new Set(module.marks ? module.marks(move.events, view) : []) : new Set();
    const picks = yourTurn ? currentChoice() : null;
    const drawn = new Set();
    ctx.pick = (key, content, name, extra = "") => pickControl(key, content, name, extra, picks, drawn, ctx);
    ctx.spot = (key, el) => {
      if (ctx.marks.has(key)) el.classList.add("last-move");
      return el;
    };
    const board = module.board(view, ctx);
    mount(
      root,
      header(ctx),
      turnLine(ctx, yourTurn),
      standIn && standIn.seat === you ? h("p", {class: "banner warn", id: "stand-in", role: "alert", "data-seq": String(standIn.seq)}, t("table.stand-in")) : null,
      move ? h("p", {class: "last-move-line", id: "last-move", "data-seq": String(move.seq), "data-actor": String(move.actor)}, h("strong", {}, t("table.last-move")), move.text) : null,
      invitePanel(view),
      resultPanel(view, ctx, module),
      view.status === "finished" && you !== null ? rematchPanel() : null,
      h("section", {class: "panel board-panel", "aria-labelledby": "board-title"}, h("h2", {class: "sr-only", id: "board-title"}, t("table.board")), board),
      yourTurn ? moveBar(picks, drawn, ctx) : null,
      rulesPanel(view.game),
      eventList(events.slice(-RECENT), ctx, move),
    );
    const again = focused && root.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    if (again) again.focus();
    arrive(move);
    // "Move played." is news until the game ends: then the result says what happened.
    if (view.status === "finished" && !busy) status.textContent = "";
    tick();
    if (tour) tour.update(view, {yourTurn, events});
    signal.show(yourTurn, module.title);
    fit(yourTurn);
    const only = forced();
    if (yourTurn && only && !busy && prefs.get("autoplay") && autoplayed !== view.version) {
      autoplayed = view.version;
      queueMicrotask(() => play(only));
    }
  }

  /**
   * Bring what matters into view as it changes: your hand and the move bar together when your turn begins
   * (on load too, and after your own move when the turn stays yours), the result when the game ends. Other
   * redraws (a pick, the feed's log, a new language) keep it in view only while the reader has done nothing
   * since, so the page never moves under someone reading or scrolling elsewhere. A guided game leaves it to its guide.
   */
  function fit(yourTurn) {
    if (busy) return;
    const now = view.status === "finished" ? "finished" : yourTurn ? "yours" : "other";
    const keep = now === shown && !(now === "yours" && answered);
    shown = now;
    answered = false;
    if (tour && main.dataset.guide) return;
    if (now === "yours") fitter.hand(keep);
    else if (now === "finished") fitter.result(keep);
  }

  /**
   * A new move's places (the card played, the pile drawn from, the seat that took) slide in: each starts a
   * little raised and faded and moves to its place by a CSS transition (app.css .moved), which
   * prefers-reduced-motion turns off. The table's first drawing and redraws of the same move stay still.
   */
  function arrive(move) {
    const seq = move ? move.seq : null;
    const first = shownMove === undefined;
    if (seq === shownMove) return;
    shownMove = seq;
    if (first || seq === null || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    for (const el of root.querySelectorAll(".board-panel .last-move")) {
      el.classList.add("moved", "arriving");
      void el.offsetWidth; // the raised style is laid out first, so its removal is a change to transition from
      el.classList.remove("arriving");
    }
  }

  /** A finished game's rematch: the same game and options, bots as bots, you in your seat, the others' seats open. */
  function rematchPanel() {
    const message = h("p", {class: "error", role: "alert", id: "rematch-error"});
    const button = h("button", {type: "button", id: "rematch", disabled: rematching, onclick: () => rematch(message)}, t("table.rematch"));
    return h("section", {class: "panel rematch", "aria-labelledby": "rematch-title"}, h("h2", {id: "rematch-title"}, t("table.rematch.title")),
      h("p", {class: "muted"}, t("table.rematch.help")), button, message);
  }

  async function rematch(message) {
    if (rematching) return;
    rematching = true;
    draw();
    const key = rematchKey;
    try {
      // The options as the game was created with them (its first event): the rules' options, the clock, a search budget.
      const [created] = (await api("GET", `/games/${id}/events?after=0&limit=1`, {token})).events;
      const d = created.data;
      const options = {...d.options};
      if (d.clock) options.clock = d.clock;
      if (d.mcts_iterations) options.mcts_iterations = d.mcts_iterations;
      const name = (mine && mine.name) || view.seats[view.you].name || t("lobby.default-name");
      const sent = entropyFor(key);
      const specs = view.seats.map((s) => (s.bot ? {bot: s.bot} : s.seat === view.you ? {...sitterAs(name), entropy: sent} : {}));
      const fresh = await api("POST", "/games", {body: {game: view.game, seats: specs, options}, key});
      const me = fresh.seats.find((s) => s.seat === view.you);
      seats.put(fresh.id, {token: me.token, seat: me.seat, name: me.name});
      if (!keepSeatReceipt(fresh.id, me.receipt, sent, fresh.dealing)) {
        message.textContent = t("seat.entropy-missing");
        return;
      }
      rematchKey = newKey();
      location.hash = `#/game/${fresh.id}`;
    } catch (err) {
      if (err.status !== 0) rematchKey = newKey(); // refused: another click is another request
      message.textContent = explain(err);
    } finally {
      rematching = false;
      const button = root.querySelector("#rematch");
      if (button) button.disabled = false;
    }
  }

  /** The one legal action, when the seat has exactly one: it needs no pick. */
  function forced() {
    return view.legal_actions.length === 1 ? view.legal_actions[0] : null;
  }

  function header(ctx) {
    const you = view.you;
    return h("header", {class: "table-head"},
      h("h1", {}, module.title, " ", h("small", {class: "muted"}, id)),
      h("p", {class: "facts"},
        you === null ? h("span", {class: "tag", id: "spectator"}, t("table.spectating")) : h("span", {class: "tag you"}, t("table.you", {name: ctx.name(you)})),
        ` · ${t(`status.${view.status}`)} · ${t("table.event", {n: view.version})}`,
        view.clock ? ` · ${t("table.clock", {n: view.clock.move_s})}` : "",
        ` · `, h("span", {id: "rated", title: t(view.rated ? "table.rated.why" : "table.unrated.why")}, t(view.rated ? "table.rated" : "table.unrated"))),
      you !== null && view.status !== "finished" ? preferences(draw) : null,
      h("nav", {class: "links", "aria-label": t("table.nav")},
        h("a", {href: "#/"}, t("page.lobby")),
        view.status === "finished" ? h("a", {href: `#/replay/${id}`, id: "replay-link"}, t("table.replay")) : null,
        h("a", {href: `/games/${id}/export`, download: `${id}.ndjson`}, t("table.export")),
        token ? h("a", {href: "#", id: "receipts-link", download: `receipts-${id}.ndjson`, onclick: saveReceipts}, t("table.receipts")) : null));
  }

  /** Hand the tab's receipts over as the receipts file `menagerie audit --receipts` reads: one JSON object a line. */
  function saveReceipts(e) {
    const lines = receipts.get(id).map((r) => `${JSON.stringify(r)}\n`);
    e.currentTarget.href = URL.createObjectURL(new Blob(lines, {type: "application/x-ndjson"}));
  }

  /** Whose turn it is and the clock: pinned to the window's top, so it never scrolls away. */
  function turnLine(ctx, yourTurn) {
    const you = view.you;
    let turn;
    if (view.status === "finished") turn = t("table.over");
    else if (view.status === "waiting") turn = t("table.waiting");
    else if (yourTurn) turn = view.to_act.length > 1 ? t("table.your-move.others", {names: ctx.names(view.to_act.filter((s) => s !== you))}) : t("table.your-turn");
    else turn = view.to_act.length ? t("table.waiting-for", {names: ctx.names(view.to_act)}) : t("table.working");
    return h("div", {class: "turn-line", id: "turn-line"},
      h("p", {id: "turn", class: `turn ${yourTurn ? "yours" : ""}`, tabindex: "-1", "data-key": "turn", "data-status": view.status, "data-version": String(view.version)}, turn),
      view.clock && view.status === "active" && view.to_act.length ? h("p", {id: "clock", class: "clock", role: "timer", "aria-label": t("table.time-left")}) : null);
  }

  function moveBar(picks, drawn, ctx) {
    const only = forced();
    const action = picks.action() || only; // a forced move is one click: Confirm is ready without a pick
    const loose = picks.loose(drawn).map((key) => pickControl(key, null, module.looseLabel ? module.looseLabel(key, view, ctx) : key, "loose", picks, drawn, ctx));
    const confirm = h("button", {type: "button", id: "confirm", class: "move-control confirm", disabled: !action || busy, "aria-busy": busy ? "true" : null,
      onclick: () => action && play(action)}, action ? t("move.confirm.what", {what: module.label(action, view, ctx)}) : busy ? t("move.sending") : t("move.confirm"));
    const clear = h("button", {type: "button", id: "clear", class: "move-control secondary", disabled: !picks.selection.size || busy,
      onclick: () => { picks.clear(); draw(); }}, t("move.clear"));
    return h("section", {class: "panel move-bar", id: "actions", "aria-label": t("move.bar")},
      h("p", {class: "hint", id: "move-hint"}, only ? t("move.only") : action ? t("move.check") : module.hint ? module.hint(view) : t("move.pick")),
      loose.length ? h("div", {class: "buttons loose"}, loose) : null,
      h("div", {class: "buttons"}, confirm, clear));
  }

  function pickControl(key, content, name, extra, picks, drawn, ctx) {
    if (content) drawn.add(key); // a key drawn on the table needs no button of its own in the move bar
    // Only what can be picked now is a control: a long row of dead buttons helps nobody.
    if (!picks || !picks.offered(key) || busy || (!picks.addable(key) && !picks.count(key))) {
      return content ? ctx.spot(key, h("span", {class: `pickable-off ${extra}`.trim()}, content)) : null;
    }
    const n = picks.count(key);
    const addable = picks.addable(key);
    const button = h("button", {
      type: "button",
      class: `pick move-control ${extra} ${n ? "picked" : ""}`.trim(),
      "data-key": key,
      "data-addable": String(addable),
      "aria-pressed": String(n > 0),
      "aria-label": n > 1 ? t("move.picked", {name, n}) : name,
      onclick: () => {
        picks.toggle(key);
        draw();
      },
    }, content || name, n > 1 ? h("span", {class: "picked-count", "aria-hidden": "true"}, `×${n}`) : null);
    return ctx.spot(key, button);
  }

  function invitePanel(v) {
    const open = v.seats.filter((s) => !s.filled);
    const links = JSON.parse(sessionStorage.getItem(`menagerie:links:${id}`) || "[]");
    if (!open.length && !(links.length && v.status !== "finished")) return null;
    const joinUrl = `${location.origin}/#/join/${id}`;
    return h("section", {class: "panel invite"}, h("h2", {}, t("invite.title")),
      open.length ? h("p", {class: "wrap"}, t("invite.open", {n: open.length}), " ", h("a", {href: joinUrl, id: "join-url"}, joinUrl)) : null,
      links.map((l) => h("p", {}, t("invite.seat-link", {name: l.name}), " ", h("a", {href: l.link}, t("invite.seat", {number: l.seat + 1})))));
  }

  // The clock counts from the game's last event (openapi.yaml, Clock): its time comes with the event.
  function tick() {
    const el = root.querySelector("#clock");
    if (!el || !view.clock) return;
    const last = events.length ? events[events.length - 1] : null;
    if (!last || last.seq !== view.version || !last.time) {
      el.textContent = t("table.clock", {n: view.clock.move_s});
      return;
    }
    const left = Math.max(0, Math.ceil(view.clock.move_s - (Date.now() - Date.parse(last.time)) / 1000));
    const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    el.textContent = view.to_act.includes(view.you) ? t("clock.yours", {time}) : t("clock.theirs", {names: contextFor(view, module).names(view.to_act), time});
    el.classList.toggle("warn", left <= WARN_S);
  }
  const timer = setInterval(() => {
    if (!stopped) tick();
  }, 500);

  draw();
  // The recent log: the last few events before now, then the live feed from here.
  const start = Math.max(0, view.version - RECENT);
  const feed = subscribe(id, start, (fresh) => {
    events = events.concat(fresh).slice(-RECENT * 4);
    // A seat keeps every event the feed sends it as a receipt: they reach GameEnded, past its last move.
    if (token) receipts.add(id, fresh);
    for (const event of fresh) if (event.type === "TimedOut") standIn = {seat: event.data.seat, seq: event.seq};
    const theirs = announcement(fresh.filter((e) => typeof e.actor === "number" && e.actor !== view.you), contextFor(view, module));
    if (theirs) announce.textContent = theirs;
    latest = Math.max(latest, fresh[fresh.length - 1].seq);
    // The log at once while an answer or a read is on its way; else the read catchUp starts draws it all.
    if (busy || reading || latest <= view.version) draw();
    catchUp();
  }, {token, onConnect: catchUp});
  const safety = setInterval(recheck, RECHECK_MS);
  const wake = () => {
    if (document.visibilityState === "visible") recheck();
  };
  document.addEventListener("visibilitychange", wake);
  const stop = () => {
    stopped = true;
    clearInterval(timer);
    clearInterval(safety);
    signal.clear();
    fitter.stop();
    if (tour) tour.stop();
    document.removeEventListener("visibilitychange", wake);
    feed();
  };
  stop.poke = feed.poke;
  stop.redraw = draw; // a new language: the same table, seat, picks and feed, in other words
  return stop;
}
