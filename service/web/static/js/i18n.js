// The page's words in English, French and German: one table per language (lang/*.js), chosen from the
// browser's languages until the player picks one with the switch (kept in localStorage).
import de from "./lang/de.js";
import en from "./lang/en.js";
import fr from "./lang/fr.js";

const TABLES = {en, fr, de};
const STORE_KEY = "menagerie:lang";

/** The languages offered by the switch, each named in itself. */
export const LANGUAGES = [["en", "English"], ["fr", "Français"], ["de", "Deutsch"]];

function stored() {
  try {
    return localStorage.getItem(STORE_KEY);
  } catch {
    return null;
  }
}

/** The player's choice, else the first of the browser's languages we have, else English. */
function initial() {
  const chosen = stored();
  if (chosen && TABLES[chosen]) return chosen;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (TABLES[base]) return base;
  }
  return "en";
}

let current = initial();
const listeners = [];

/** The language the page speaks now ("en", "fr" or "de"). */
export function language() {
  return current;
}

/** Speak another language from now on, remember it, and tell the screens to draw again. */
export function setLanguage(lang) {
  if (!TABLES[lang] || lang === current) return;
  current = lang;
  try {
    localStorage.setItem(STORE_KEY, lang);
  } catch {
    // A browser refusing storage still switches for this visit.
  }
  document.documentElement.lang = lang;
  for (const listener of listeners) listener(lang);
}

/** Call `listener(lang)` whenever the language changes. */
export function onLanguage(listener) {
  listeners.push(listener);
}

const rules = new Map();
function pluralRule(type) {
  const key = `${current}:${type}`;
  if (!rules.has(key)) rules.set(key, new Intl.PluralRules(current, {type}));
  return rules.get(key);
}

function lookup(key) {
  const own = TABLES[current][key];
  return own === undefined ? en[key] : own;
}

/** Tell whether a key has words in some table (an unknown card of a game's own set has none). */
export function has(key) {
  return lookup(key) !== undefined;
}

/**
 * The words of `key` with `{name}` placeholders filled from `params`. An entry may be plural forms
 * ({one, other, …}, chosen by `params.n` with the language's plural rules; ordinal forms for keys
 * starting with "ordinal").
 */
export function t(key, params = {}) {
  let entry = lookup(key);
  if (entry === undefined) return key;
  if (typeof entry === "object") {
    const n = Number(params.n ?? 0);
    const form = pluralRule(key.startsWith("ordinal") ? "ordinal" : "cardinal").select(n);
    entry = entry[form] ?? entry.other;
  }
  return entry.replace(/\{(\w+)\}/g, (whole, name) => (params[name] === undefined || params[name] === null ? whole : String(params[name])));
}

/** "a", "a and b", "a, b and c" in the page's language. */
export function list(items) {
  const words = items.map(String);
  if (words.length <= 1) return words.join("");
  return new Intl.ListFormat(current, {style: "long", type: "conjunction"}).format(words);
}

/** A place in words: "1st" / "1er" / "1.". */
export function ordinal(n) {
  return t("ordinal", {n});
}

/** Capitalise a name for a card face ("girafe" -> "Girafe"). */
export function cap(text) {
  const s = String(text);
  return s.charAt(0).toLocaleUpperCase(current) + s.slice(1);
}

/**
 * A species of a game named as its rulebook names it (`n` chooses singular or plural; `form: "a"` with an
 * article where a language needs one). An unknown species keeps its own name.
 */
export function animal(game, species, {n = 1, form = ""} = {}) {
  const key = `animal.${game}.${species}${form ? `.${form}` : ""}`;
  if (has(key)) return t(key, {n});
  const plain = String(species).replace(/^[wb]:/, "").replace(/[-_]/g, " ");
  return form === "a" ? t("a-thing", {name: plain}) : plain;
}
