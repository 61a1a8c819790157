// Card and tile faces, drawn in CSS: a colour and a symbol per species (fixed per game, no two alike), the
// printed number in the corners, the name across. The numbers come from the view; only colours live here.
import {h} from "./dom.js";
import {t} from "./i18n.js";

// Twelve symbols to go with the twelve palette colours (app.css .c1 … .c12): a species keeps both.
const SYMBOLS = ["●", "▲", "■", "◆", "★", "♥", "♠", "♣", "✚", "☀", "✿", "☾"];

// Presentation only (which colour a species wears), in each rulebook's order; values stay in the view.
const PALETTES = {
  "life-is-life": ["giraffe", "bear", "mole", "goat", "sheep", "dog", "rabbit", "pig", "cat", "mouse"],
  "animals-on-board": ["elephant", "panda", "crocodile", "tiger", "giraffe", "lion", "zebra", "fox", "gorilla", "turtle", "rhino", "hippo"],
  "bloede-kuh": ["sheep", "pig", "horse", "cow"],
  // Zop Zoo's cards wear their category's colour (what a match and a side bonus depend on).
  "zop-zoo": ["MAMMAL", "OCEAN", "BIRD", "INSECT", "SEMI-AQUATIC", "HORNS", "REPTILE", "MARSUPIAL", "ARACHNID", "MYTHICAL"],
};

// Blöde Kuh's four species wear four far-apart colours of the twelve.
const SPREAD = {"bloede-kuh": [3, 1, 8, 6]};

/** The palette slot (1-12) of a species in a game, or 0 when it has none. */
export function slot(game, species) {
  const list = PALETTES[game] || [];
  const index = list.indexOf(species);
  if (index < 0) return 0;
  return SPREAD[game] ? SPREAD[game][index] : (index % 12) + 1;
}

/**
 * A card face: {game, species, name, number (printed in two corners), sub (a second line), kind (extra class),
 * small}. The accessible name says the same as the face: "Giraffe, 9".
 */
export function face({game, species, name, number = null, sub = null, kind = "", small = false, label = null}) {
  const n = slot(game, species);
  const shown = number === null || number === undefined ? null : String(number);
  // The name's longest unbreakable piece sets the card's width (app.css), never its letters' size:
  // "Warzen­schwein" breaks at its soft hyphen. So does the second line's, shown in capitals ("ROUND 2").
  const style = {"--chars": longestWord(name), "--sub-chars": sub ? longestWord(String(sub).toUpperCase()) : 4};
  return h("span", {class: `card c${n} ${kind} ${small ? "small" : ""}`.trim(), style, role: "img",
    "aria-label": (label || [name, shown, sub].filter(Boolean).join(", ")).replace(/\u00ad/g, "")},
    // The text reads in the order a card is said ("Giraffe 9"): a button's label holds it word for word
    // (label in name, WCAG 2.5.3). The corners are placed by app.css; the second corner is the same number
    // drawn again (a CSS copy of data-n), decoration rather than text.
    // The spaces between the parts keep "Giraffe" and "9" two words (a flex column lays no space out).
    h("span", {class: "sym", "aria-hidden": "true"}, n ? SYMBOLS[n - 1] : "◇"), " ",
    h("span", {class: "name", "aria-hidden": "true"}, name), " ",
    shown !== null ? [h("span", {class: "num tl", "aria-hidden": "true"}, shown), " "] : null,
    sub ? [h("span", {class: "sub", "aria-hidden": "true"}, sub), " "] : null,
    shown !== null ? h("span", {class: "num br", "aria-hidden": "true", "data-n": shown}) : null);
}

/** The width of the longest piece a text can't be broken inside, in letters (at least 4). */
function longestWord(text) {
  return Math.max(4, ...String(text).split(/[\s\u00ad-]+/).map(letters));
}

/** A piece's width in small letters: a capital ("EARTHWORM") runs about a quarter wider. */
function letters(piece) {
  return [...piece].reduce((sum, c) => sum + (c !== c.toLowerCase() ? 1.25 : 1), 0);
}

/** A hidden card's back, with how many lie there ("12" on a pile). */
export function back(count = null, label = t("card.face-down")) {
  return h("span", {class: "card back", role: "img", "aria-label": count === null ? label : t("card.count", {label, n: count})},
    count === null ? null : h("span", {class: "count", "aria-hidden": "true"}, String(count)));
}

/** A row of faces. */
export function fan(items, extra = "") {
  return h("span", {class: `fan ${extra}`.trim()}, items);
}
