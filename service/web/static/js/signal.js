// Your turn, unmistakable even from another tab: the tab's title and icon change, and a chime sounds if the
// player asked for one. The player's choices (sound, forced moves played for them) are kept in localStorage.
import {h} from "./dom.js";
import {t} from "./i18n.js";

const TITLE = "Menagerie";
const ICON = "/static/web/favicon.svg";
const ICON_TURN = "/static/web/favicon-turn.svg";

/** The table's remembered switches, each off until the player turns it on: "sound", "autoplay". */
export const prefs = {
  get(name) {
    try {
      return localStorage.getItem(`menagerie:${name}`) === "on";
    } catch {
      return false;
    }
  },
  set(name, on) {
    localStorage.setItem(`menagerie:${name}`, on ? "on" : "off");
  },
};

let audio = null;
let waiting = false;

/** A short soft chime (made, not fetched: nothing to load, nothing the page's policy must allow). */
function chime() {
  if (!audio) return; // made by the switch's click: a browser lets no page start sound on its own
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  const now = audio.currentTime;
  osc.frequency.setValueAtTime(660, now);
  osc.frequency.setValueAtTime(880, now + 0.12);
  gain.gain.setValueAtTime(0.12, now);
  gain.gain.exponentialRampToValueAtTime(0.001, now + 0.45);
  osc.connect(gain).connect(audio.destination);
  osc.start(now);
  osc.stop(now + 0.45);
}

function wakeAudio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  if (!audio) audio = new Context();
  if (audio.state === "suspended") audio.resume();
}

function setIcon(href) {
  const link = document.querySelector('link[rel="icon"]');
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** Follow whose turn it is: title and icon on each change, a chime (if on) when the turn becomes yours. */
export function turnSignal() {
  let was = false;
  return {
    show(yours, game) {
      document.title = yours ? t("table.title.yours", {game}) : `${game} · ${TITLE}`;
      document.documentElement.dataset.yourTurn = String(yours);
      setIcon(yours ? ICON_TURN : ICON);
      if (yours && !was && prefs.get("sound")) chime();
      was = yours;
    },
    clear() {
      document.title = TITLE;
      delete document.documentElement.dataset.yourTurn;
      setIcon(ICON);
      was = false;
    },
  };
}

/** The seat's switches: a chime on your turn, and forced moves (a single legal one) played for you. */
export function preferences(onChange) {
  const box = (name, label) => {
    // Keyed like the picks, so a redraw by the live feed keeps a keyboard player's focus on it.
    const input = h("input", {type: "checkbox", id: `pref-${name}`, "data-key": `pref-${name}`, checked: prefs.get(name),
      onchange: () => {
        prefs.set(name, input.checked);
        if (name === "sound" && input.checked) {
          wakeAudio();
          chime(); // what it will sound like
        }
        onChange();
      }});
    return h("label", {class: "check", for: `pref-${name}`}, input, label);
  };
  if (prefs.get("sound") && !waiting) {
    // Sound turned on in an earlier visit: the first click or key of this one lets it play.
    waiting = true;
    for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, wakeAudio, {once: true});
  }
  return h("p", {class: "prefs"}, box("sound", t("table.pref.sound")), box("autoplay", t("table.pref.autoplay")));
}
