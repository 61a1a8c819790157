// The replay: a slider over every event (GET /games/{id}?at=N), a perspective, step buttons, the audit badge.
import {ApiError, allEvents, api, explain, seats} from "./api.js";
import {caption as eventCaption, contextFor, resultPanel} from "./context.js";
import {h, mount} from "./dom.js";
import {gameModule} from "./games/index.js";
import {has, language, t} from "./i18n.js";

/** Draw the replay of a game. */
export async function replay(main, id) {
  const mine = seats.get(id);
  let now;
  try {
    now = await api("GET", `/games/${id}`, {token: mine && mine.token});
  } catch (err) {
    mount(main, h("h1", {}, t("replay.title")), h("p", {class: "error", role: "alert"}, explain(err)));
    return null;
  }
  const module = gameModule(now.game);
  const finished = now.status === "finished";
  const last = now.version;
  let events = [];
  try {
    events = await allEvents(id, finished ? null : mine && mine.token);
  } catch (err) {
    events = [];
  }

  const perspective = h("select", {id: "perspective"},
    finished ? h("option", {value: "open"}, t("replay.open")) : null,
    h("option", {value: "spectator"}, t("replay.spectator")),
    mine ? h("option", {value: "seat"}, t("replay.your-seat", {name: mine.name || t("invite.seat", {number: mine.seat + 1})})) : null);
  const slider = h("input", {type: "range", id: "replay-slider", min: 1, max: last, value: last, step: 1, "aria-label": t("replay.event-number")});
  const position = h("output", {id: "replay-position", for: "replay-slider"});
  const caption = h("p", {id: "replay-event", class: "note", "aria-live": "polite"});
  const boardBox = h("div", {id: "replay-board"});
  const message = h("p", {class: "error", id: "replay-error", role: "alert"});
  const step = (delta) => () => {
    slider.value = String(Math.min(last, Math.max(1, Number(slider.value) + delta)));
    show();
  };
  // The button's words are its name (a voice user says what they read); the arrows are drawing, the longer
  // wording a tooltip.
  const button = (text, label, onclick, elId) => {
    const [, before, words, after] = text.match(/^([«◀]\s*)?(.*?)(\s*[»▶])?$/u);
    return h("button", {type: "button", class: "secondary", title: label, onclick, id: elId},
      before ? h("span", {"aria-hidden": "true"}, before) : null, words, after ? h("span", {"aria-hidden": "true"}, after) : null);
  };

  let ticket = 0;
  async function show() {
    const at = Number(slider.value);
    const mineTicket = ++ticket;
    position.textContent = t("replay.position", {at, last});
    const query = new URLSearchParams();
    if (at < last) query.set("at", String(at));
    if (perspective.value === "open") query.set("open", "true");
    const token = perspective.value === "seat" && mine ? mine.token : null;
    const event = events[at - 1];
    caption.textContent = event ? `#${event.seq}: ${eventCaption(event, module, contextFor(now, module))}` : "";
    try {
      const view = await api("GET", `/games/${id}${query.toString() ? `?${query}` : ""}`, {token});
      if (mineTicket !== ticket) return;
      message.textContent = "";
      const ctx = contextFor(view, module);
      mount(boardBox, at === last ? resultPanel(view, ctx, module) : null, module.board(view, ctx));
      Object.assign(boardBox.dataset, {shown: String(at), failed: "false"});
    } catch (err) {
      if (mineTicket === ticket) {
        message.textContent = t("replay.cannot", {at, why: explain(err)});
        mount(boardBox);
        Object.assign(boardBox.dataset, {shown: String(at), failed: "true"});
      }
    }
  }
  slider.addEventListener("input", show);

  // Autoplay: one event a second at 1×, each shown (its view read) before the next is timed; it stops at the end.
  const speed = h("select", {id: "replay-speed"}, SPEEDS.map((x) => h("option", {value: String(x), selected: x === 1}, t("replay.speed.x", {x: new Intl.NumberFormat(language()).format(x)}))));
  const playButton = h("button", {type: "button", id: "replay-play", "data-playing": "false", onclick: () => (playing === null ? startPlaying() : stopPlaying())}, t("replay.play"));
  let playing = null;
  function stopPlaying() {
    clearTimeout(playing);
    playing = null;
    playButton.textContent = t("replay.play");
    playButton.dataset.playing = "false";
  }
  function startPlaying() {
    if (Number(slider.value) >= last) slider.value = "1"; // at the end, Play starts again from the first event
    playButton.textContent = t("replay.pause");
    playButton.dataset.playing = "true";
    show();
    later();
  }
  function later() {
    playing = setTimeout(async () => {
      if (!slider.isConnected || Number(slider.value) >= last) return stopPlaying();
      slider.value = String(Number(slider.value) + 1);
      await show();
      if (playing === null) return;
      if (Number(slider.value) >= last) stopPlaying();
      else later();
    }, 1000 / Number(speed.value));
  }
  perspective.addEventListener("change", show);

  const badge = h("p", {id: "audit-badge", class: "badge pending", "aria-live": "polite"}, t("replay.auditing"));
  mount(
    main,
    h("header", {class: "table-head"},
      h("h1", {}, t("replay.heading", {game: module.title}), " ", h("small", {class: "muted"}, id)),
      h("nav", {class: "links", "aria-label": t("table.nav")},
        h("a", {href: "#/"}, t("page.lobby")),
        h("a", {href: `#/game/${id}`}, t("table.board")),
        h("a", {href: `/games/${id}/export`, download: `${id}.json`, id: "export-link"}, t("replay.download")))),
    finished ? badge : h("p", {class: "note"}, t("replay.in-play")),
    h("section", {class: "panel replay-controls"},
      h("div", {class: "field"}, h("label", {for: "perspective"}, t("replay.perspective")), perspective),
      h("div", {class: "field"}, h("label", {for: "replay-slider"}, t("replay.event")), slider, position),
      h("div", {class: "buttons"}, playButton,
        h("label", {for: "replay-speed", class: "check"}, t("replay.speed"), speed)),
      h("div", {class: "buttons"},
        button(t("replay.first"), t("replay.first.label"), () => { slider.value = "1"; show(); }, "replay-first"),
        button(t("replay.back"), t("replay.back.label"), step(-1), "replay-back"),
        button(t("replay.next"), t("replay.next.label"), step(1), "replay-next"),
        button(t("replay.last"), t("replay.last.label"), () => { slider.value = String(last); show(); }, "replay-last")),
      caption, message),
    h("section", {class: "panel"}, h("h2", {}, t("replay.table")), boardBox),
  );
  await show();
  if (finished) {
    try {
      const audit = await auditReport(id, badge);
      if (audit === null) return stopPlaying;
      badge.className = `badge ${audit.ok ? "ok" : "failed"}`;
      badge.textContent = audit.ok
        ? t("replay.audit-ok", {n: audit.events, checks: audit.checks.map((check) => (has(`audit.${check}`) ? t(`audit.${check}`) : check)).join(", ")})
        : t("replay.audit-failed", {at: audit.failed_at, reason: audit.reason});
      badge.dataset.ok = String(audit.ok);
    } catch (err) {
      // An archived game is not a failed one: its whole log is in the file it was archived to.
      const archived = err.code === "game_archived";
      badge.className = `badge ${archived ? "pending" : "failed"}`;
      badge.textContent = archived ? t("replay.archived") : t("replay.audit-unavailable", {why: explain(err)});
      if (archived) badge.dataset.archived = "true";
    }
  }
  return stopPlaying;
}

const SPEEDS = [0.5, 1, 2, 4];

/**
 * The game's audit report: answered at once (200), or for a long game run as a job (202), polled at
 * the audit's own URL after each Retry-After while the badge shows its progress. Null if the page
 * moved on meanwhile; a job that could not finish rejects with its reason.
 */
async function auditReport(id, badge) {
  let answer = await api("GET", `/games/${id}/audit`);
  while (answer.status === "queued" || answer.status === "running") {
    badge.textContent = t("replay.auditing-progress", {done: answer.progress.done, total: answer.progress.total});
    await new Promise((resolve) => setTimeout(resolve, 1000));
    if (!badge.isConnected) return null;
    answer = await api("GET", `/audits/${answer.id}`);
  }
  if (answer.status === "failed") throw new ApiError(200, answer.failure.code, answer.failure.message);
  return answer.status === "done" ? answer.result : answer;
}
