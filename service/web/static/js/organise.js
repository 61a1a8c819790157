// Tournaments for organisers: a new tournament, and on its page the organiser's panel (the token kept in this
// browser, the invitation code to share, entrants to approve or remove, bots, the start, corrections).
// What may be done when is the API's to say: a refusal is shown in words, never foreseen here.
import {api, explain} from "./api.js";
import {h, mount} from "./dom.js";
import {gameModule} from "./games/index.js";
import {has, t} from "./i18n.js";
import {optionField, readOptions} from "./lobby.js";

// An organiser's token is `<tournament id>.<secret>` (service/http/auth.py): kept per tournament, in
// localStorage like the account's player token, so every tab of this browser organises it.
const KEY = (id) => `menagerie:organiser:${id}`;
// The tournament just created, whose token is shown until "I saved it" is pressed (never after a reload).
let shownFor = null;

/** What this browser keeps of a tournament it organises, `{token, code}`, or null. */
export function organiser(id) {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY(id)));
    return kept && typeof kept.token === "string" && kept.token.startsWith(`${id}.`) ? kept : null;
  } catch {
    return null;
  }
}

function keep(id, kept) {
  localStorage.setItem(KEY(id), JSON.stringify(kept));
}

function forget(id) {
  localStorage.removeItem(KEY(id));
  if (shownFor === id) shownFor = null; // shown once: a token pasted back later is not shown either
}

/** A refusal in words: the tournament's own codes where the tables have words for them, else as the API says. */
export function sayCup(err) {
  const key = `org.error.${err.code}`;
  return has(key) ? t(key) : explain(err);
}

const FORMATS = ["swiss", "round-robin"];
const REGISTRATIONS = ["open", "code", "approval"];
// "" leaves the tournament's default clock (docs/organisers.md); "none" turns the clock off.
const CLOCKS = ["", "none", "30", "60", "300", "86400"];

/** The new-tournament screen (#/organise): the game, its options, format, rounds, places and who may register. */
export async function organiseScreen(main) {
  mount(main, h("h1", {}, t("org.new")), h("p", {class: "muted"}, t("lobby.loading")));
  let types;
  try {
    types = (await api("GET", "/game-types")).game_types;
  } catch (err) {
    mount(main, h("h1", {}, t("org.new")), h("p", {class: "error", role: "alert"}, explain(err)));
    return null;
  }
  const message = h("p", {class: "error", role: "alert", id: "organise-error"});
  const typeSelect = h("select", {id: "cup-game"}, types.map((type) => h("option", {value: type.id}, gameModule(type.id).title || type.title)));
  const format = h("select", {id: "cup-format"}, FORMATS.map((f) => h("option", {value: f}, t(f === "swiss" ? "cup.swiss" : "cup.round-robin"))));
  const rounds = h("input", {id: "cup-rounds", type: "number", min: 1, value: 3, required: true});
  const maxPlayers = h("input", {id: "cup-max-players", type: "number", min: 2, "aria-describedby": "cup-max-players-help"});
  const registration = h("select", {id: "cup-registration", "aria-describedby": "cup-registration-help"},
    REGISTRATIONS.map((r) => h("option", {value: r}, t(`org.registration.${r}`))));
  const registrationHelp = h("small", {class: "muted", id: "cup-registration-help"});
  const clock = h("select", {id: "cup-clock"}, CLOCKS.map((c) => h("option", {value: c}, t(`org.clock.${c || "default"}`))));
  const sizes = h("fieldset", {class: "field", id: "cup-table-sizes"});
  const options = h("div", {class: "options"});
  const typeOf = () => types.find((type) => type.id === typeSelect.value);

  function drawType() {
    const type = typeOf();
    const range = Array.from({length: type.max_seats - type.min_seats + 1}, (_, i) => type.min_seats + i);
    mount(sizes, h("legend", {}, t("org.table-sizes")), h("small", {class: "muted"}, t("org.table-sizes.help")),
      h("div", {class: "choices"}, range.map((n) => h("label", {class: "check"}, h("input", {type: "checkbox", value: String(n), checked: true}), ` ${n}`))));
    mount(options, type.options.length ? h("h2", {}, t("lobby.options")) : null, type.options.map((option) => optionField(type.id, option)));
  }
  const drawHelp = () => {
    registrationHelp.textContent = t(`org.registration.${registration.value}.help`);
  };
  typeSelect.addEventListener("change", drawType);
  registration.addEventListener("change", drawHelp);
  drawType();
  drawHelp();

  const form = h("form", {class: "panel", id: "organise-form"},
    h("div", {class: "field"}, h("label", {for: "cup-game"}, t("lobby.game")), typeSelect),
    h("div", {class: "field"}, h("label", {for: "cup-format"}, t("org.format")), format),
    h("div", {class: "field"}, h("label", {for: "cup-rounds"}, t("org.rounds")), rounds),
    h("div", {class: "field"}, h("label", {for: "cup-max-players"}, t("org.max-players")), maxPlayers,
      h("small", {class: "muted", id: "cup-max-players-help"}, t("org.max-players.help"))),
    h("div", {class: "field"}, h("label", {for: "cup-registration"}, t("org.registration")), registration, registrationHelp),
    sizes,
    h("div", {class: "field"}, h("label", {for: "cup-clock"}, t("lobby.clock")), clock),
    options,
    h("button", {type: "submit", id: "organise-button"}, t("org.create")), message);

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    message.textContent = "";
    const type = typeOf();
    let body;
    try {
      body = {game: type.id, format: format.value, rounds: Number(rounds.value), registration: registration.value, options: readOptions(type, options)};
    } catch (err) {
      message.textContent = err.message;
      return;
    }
    const chosen = [...sizes.querySelectorAll("input:checked")].map((i) => Number(i.value));
    if (chosen.length && chosen.length < sizes.querySelectorAll("input").length) body.table_sizes = chosen;
    if (maxPlayers.value) body.max_players = Number(maxPlayers.value);
    if (clock.value === "none") body.options.clock = null;
    else if (clock.value) body.options.clock = {move_s: Number(clock.value)};
    try {
      const made = await api("POST", "/tournaments", {body});
      keep(made.id, {token: made.organiser_token, code: made.invitation_code || null});
      shownFor = made.id;
      location.hash = `#/tournament/${encodeURIComponent(made.id)}`;
    } catch (err) {
      message.textContent = sayCup(err);
    }
  });
  mount(main, h("h1", {}, t("org.new")), h("p", {class: "muted"}, t("org.intro")), form);
  return null;
}

/**
 * The organiser's panel of a tournament page, or, without a kept token, a folded form to paste one.
 * `state` outlives the page's redraws (typed reasons, the entrant being removed; `types`, the game types; `seated(table)`,
 * the names at a table as the page shows them); `changed(view)` draws
 * the page again with the view an answer brought.
 */
export function organiserPanel(cup, state, changed) {
  const kept = organiser(cup.id);
  if (!kept) return pastePanel(cup, changed);
  const message = h("p", {class: "error", role: "alert", id: "organiser-error"}, state.message || "");
  const names = new Map(cup.players.map((p) => [p.entrant, p.bot ? t("cup.bot", {name: p.name, bot: p.bot}) : p.name]));

  async function send(path, body, done = () => {}) {
    state.message = "";
    try {
      const view = await api("POST", `/tournaments/${encodeURIComponent(cup.id)}/${path}`, {token: kept.token, body});
      done();
      changed(view && view.id === cup.id && view.players ? view : null);
    } catch (err) {
      state.message = sayCup(err);
      message.textContent = state.message;
    }
  }
  send.redraw = () => changed(null);

  const registering = cup.status === "registering";
  const fresh = shownFor === cup.id;
  return h("section", {class: "panel organiser", id: "organiser", "aria-labelledby": "organiser-title"},
    h("h2", {id: "organiser-title"}, t("org.title")),
    fresh ? h("div", {class: "token-once", id: "organiser-token-once", role: "status"},
      h("p", {}, h("strong", {}, t("org.token-once"))),
      h("p", {}, h("code", {id: "organiser-token"}, kept.token)),
      h("button", {type: "button", class: "secondary", id: "organiser-token-saved", onclick: () => {
        shownFor = null;
        changed(null);
      }}, t("account.token-saved"))) : null,
    cup.registration === "code" && registering ? invitation(cup, kept) : null,
    cup.registration === "approval" && registering ? h("p", {class: "muted"}, t("org.approval-note")) : null,
    entrantsTable(cup, state, names, send, registering),
    registering ? botForm(cup, state, send) : null,
    registering ? h("div", {class: "buttons"}, h("button", {type: "button", id: "start-tournament", onclick: () => send("start", {})}, t("org.start"))) : null,
    cup.status === "active" ? annulForm(cup, state, send) : null,
    message,
    h("p", {}, h("button", {type: "button", class: "secondary", id: "organiser-forget", onclick: () => {
      if (!window.confirm(t("org.forget.confirm"))) return;
      forget(cup.id);
      changed(null);
    }}, t("org.forget"))));
}

/** The invitation code and a link that brings it along (in the fragment: never sent to the server). */
function invitation(cup, kept) {
  if (!kept.code) return h("p", {class: "muted", id: "invitation"}, t("org.code-unknown"));
  const link = `${location.origin}/#/tournament/${encodeURIComponent(cup.id)}/code/${encodeURIComponent(kept.code)}`;
  return h("div", {id: "invitation"},
    h("p", {}, t("org.code"), " ", h("code", {id: "invitation-code"}, kept.code)),
    h("p", {class: "wrap"}, t("org.code-link"), " ", h("a", {href: link, id: "invitation-link"}, link)));
}

function entrantsTable(cup, state, names, send, registering) {
  if (!cup.players.length) return h("p", {class: "muted", id: "entrants"}, t("org.no-entrants"));
  return h("div", {class: "scroll-x"}, h("table", {class: "grid", id: "entrants"},
    h("caption", {}, t("org.entrants")),
    h("thead", {}, h("tr", {}, [t("org.col.number"), t("cup.col.player"), t("org.col.status"), t("org.col.do")].map((c) => h("th", {scope: "col"}, c)))),
    h("tbody", {}, cup.players.map((p) => {
      const stillIn = p.status === "active" || p.status === "pending";
      const removing = state.removing === p.entrant;
      return [
        h("tr", {"data-entrant": String(p.entrant)},
          h("td", {}, t("org.number", {number: p.entrant + 1, api: p.entrant})),
          h("td", {}, names.get(p.entrant)),
          h("td", {class: "status"}, t(`org.status.${p.status}`)),
          h("td", {}, h("span", {class: "buttons"},
            p.status === "pending" ? h("button", {type: "button", class: "approve", onclick: () => send("approve", {entrant: p.entrant})}, t("org.approve")) : null,
            stillIn && cup.status !== "finished" && !removing ? h("button", {type: "button", class: "secondary remove", onclick: () => {
              state.removing = p.entrant;
              send.redraw();
            }}, registering ? t("org.remove") : t("org.disqualify")) : null))),
        removing ? h("tr", {}, h("td", {colspan: 4}, removeForm(p, state, send, names, registering))) : null,
      ];
    }))));
}

/** Ask why before removing (a disqualification is a correction, with its reason). */
function removeForm(p, state, send, names, registering) {
  const reason = h("input", {id: "remove-reason", required: true, maxlength: 500, value: state.removeReason || "", oninput: (e) => {
    state.removeReason = e.target.value;
  }});
  const form = h("form", {id: "remove-form", class: "inline"},
    h("div", {class: "field"}, h("label", {for: "remove-reason"}, t("org.reason-for", {name: names.get(p.entrant)})), reason),
    h("div", {class: "buttons"}, h("button", {type: "submit", id: "remove-confirm"}, registering ? t("org.remove") : t("org.disqualify")),
      h("button", {type: "button", class: "secondary", onclick: () => {
        state.removing = null;
        send.redraw();
      }}, t("org.cancel"))));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    send("disqualify", {entrant: p.entrant, reason: reason.value.trim()}, () => {
      state.removing = null;
      state.removeReason = "";
    });
  });
  return form;
}

function botForm(cup, state, send) {
  const type = (state.types || []).find((x) => x.id === cup.game);
  const kinds = type ? type.bots : [];
  if (!kinds.length) return null;
  const select = h("select", {id: "bot-kind"}, kinds.map((b) => h("option", {value: b}, t("lobby.seat.bot", {bot: b}))));
  select.value = state.bot || (kinds.includes("heuristic") ? "heuristic" : kinds[0]);
  select.addEventListener("change", () => {
    state.bot = select.value;
  });
  const form = h("form", {id: "bot-form", class: "field"}, h("label", {for: "bot-kind"}, t("org.add-bot")), select,
    h("button", {type: "submit", class: "secondary", id: "add-bot"}, t("org.add")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    send("register", {bot: select.value});
  });
  return form;
}

/** Annul a table's result (or have it played again): tables by the number people read, the API's beside it. */
function annulForm(cup, state, send) {
  const rounds = cup.rounds.map((r) => r.round);
  const round = state.annulRound && rounds.includes(state.annulRound) ? state.annulRound : rounds[rounds.length - 1];
  const tables = cup.rounds.find((r) => r.round === round).tables;
  const roundSelect = h("select", {id: "annul-round"}, rounds.map((n) => h("option", {value: String(n)}, t("cup.round", {round: n}))));
  roundSelect.value = String(round);
  roundSelect.addEventListener("change", () => {
    state.annulRound = Number(roundSelect.value);
    state.annulTable = null;
    send.redraw();
  });
  const tableSelect = h("select", {id: "annul-table"}, tables.map((tab) => h("option", {value: String(tab.table)},
    `${t("cup.table.api", {number: tab.table + 1, api: tab.table})} ${state.seated(tab).join(", ")}`)));
  if (state.annulTable !== null && state.annulTable !== undefined) tableSelect.value = String(state.annulTable);
  tableSelect.addEventListener("change", () => {
    state.annulTable = Number(tableSelect.value);
  });
  const reason = h("input", {id: "annul-reason", required: true, maxlength: 500, value: state.annulReason || "", oninput: (e) => {
    state.annulReason = e.target.value;
  }});
  const replay = h("input", {type: "checkbox", id: "annul-replay", checked: !!state.annulReplay, onchange: (e) => {
    state.annulReplay = e.target.checked;
  }});
  const form = h("form", {id: "annul-form"}, h("h3", {}, t("org.annul-title")), h("p", {class: "muted"}, t("org.annul-help")),
    h("div", {class: "field"}, h("label", {for: "annul-round"}, t("org.round")), roundSelect),
    h("div", {class: "field"}, h("label", {for: "annul-table"}, t("org.table")), tableSelect),
    h("div", {class: "field"}, h("label", {for: "annul-reason"}, t("org.reason")), reason),
    h("div", {class: "field check"}, replay, h("label", {for: "annul-replay"}, t("org.replay"))),
    h("button", {type: "submit", id: "annul-button"}, t("org.annul")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    send("annul", {round: Number(roundSelect.value), table: Number(tableSelect.value), reason: reason.value.trim(), replay: replay.checked}, () => {
      state.annulReason = "";
      state.annulReplay = false;
    });
  });
  return form;
}

/** Without a kept token: a folded form to paste the organiser's token (checked by reading the tournament with it). */
function pastePanel(cup, changed) {
  const input = h("input", {id: "organiser-token-input", required: true, autocomplete: "off", spellcheck: false});
  const message = h("p", {class: "error", role: "alert"});
  const form = h("form", {id: "organiser-paste"},
    h("div", {class: "field"}, h("label", {for: "organiser-token-input"}, t("org.token")), input),
    h("button", {type: "submit", class: "secondary"}, t("org.use-token")), message);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const token = input.value.trim();
    if (!token.startsWith(`${cup.id}.`)) {
      message.textContent = t("org.error.bad-token");
      return;
    }
    try {
      // Any of the tournament's tokens reads it; an entrant's is answered with its own entrant number.
      const view = await api("GET", `/tournaments/${encodeURIComponent(cup.id)}`, {token});
      if (view.you !== null && view.you !== undefined) {
        message.textContent = t("org.error.entrant-token");
        return;
      }
    } catch (err) {
      message.textContent = err.status === 401 || err.status === 403 ? t("org.error.bad-token") : explain(err);
      return;
    }
    keep(cup.id, {token, code: null});
    changed(null);
  });
  return h("details", {class: "panel", id: "organiser-paste-panel"}, h("summary", {}, t("org.have-token")), form);
}

/** The corrections, as everyone reads them: what, which table (from 1), why, and who asked. */
export function correctionsPanel(cup, names) {
  if (!cup.corrections.length) return null;
  return h("section", {class: "panel", id: "corrections"}, h("h2", {}, t("org.corrections")),
    h("ul", {}, cup.corrections.map((c) => h("li", {}, correctionWords(c, names)))));
}

function correctionWords(c, names) {
  if (c.type === "ResultAnnulled") {
    const asked = c.asked_by === undefined ? "" : c.asked_by === "entrants"
      ? t("org.asked.entrants", {names: (c.agreed || []).map((e) => names.get(e)).join(", ")})
      : c.asked_by === "organiser" ? t("org.asked.organiser") : t("org.asked.co-organiser", {number: String(c.asked_by).split(":")[1]});
    return t(c.replay ? "org.correction.replayed" : "org.correction.annulled", {round: c.round, table: c.table + 1, reason: c.reason, asked});
  }
  const who = names.get(c.entrant);
  const by = c.by === "entrant" ? t("org.asked.self") : t("org.asked.organiser");
  return t(c.type === "PlayerWithdrawn" ? "org.correction.withdrawn" : "org.correction.disqualified", {name: who, reason: c.reason, asked: by});
}
